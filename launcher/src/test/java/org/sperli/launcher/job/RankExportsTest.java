package org.sperli.launcher.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.sperli.launcher.exit.ExitCodes;
import org.sperli.launcher.exit.LauncherException;

/** {@code -x VAR} and {@code -x VAR=VALUE}: checked names, the launcher's values, quoting for the remote shell. */
class RankExportsTest {
    @Test
    void aNameOutsideTheShellSyntaxIsRefusedWithStatus2() {
        for (String bad : List.of("1X=a", "A-B=c", "=empty", "A.B", "Ä=1", "")) {
            LauncherException e = assertThrows(LauncherException.class, () -> RankExports.of(List.of(bad), Map.of()));
            assertEquals(ExitCodes.USAGE, e.exitCode());
            assertTrue(e.getMessage().startsWith("-x " + bad + ": '"), e.getMessage());
            assertTrue(e.getMessage().contains("is not a variable name"), e.getMessage());
        }
    }

    @Test
    void aBareNameTheLauncherDoesNotHaveIsRefusedWithStatus2() {
        LauncherException e = assertThrows(LauncherException.class,
                () -> RankExports.of(List.of("SPERLI_NOT_SET"), Map.of()));
        assertEquals(ExitCodes.USAGE, e.exitCode());
        assertEquals("-x SPERLI_NOT_SET: SPERLI_NOT_SET is not set in the launcher's environment (give"
                + " -x SPERLI_NOT_SET=VALUE)", e.getMessage());
    }

    @Test
    void aBareNameCopiesTheLaunchersValueAndAnAssignmentItsOwn() {
        RankExports exports = RankExports.of(List.of("A", "B=x=y", "_c1="), Map.of("A", "from launcher"));
        assertEquals(Map.of("A", "from launcher", "B", "x=y", "_c1", ""), exports.variables());
        assertEquals(List.of("A", "B", "_c1"), List.copyOf(exports.variables().keySet()));
    }

    @Test
    void theLaterOfTwoValuesForOneNameWins() {
        assertEquals(Map.of("A", "2"), RankExports.of(List.of("A=1", "A=2"), Map.of()).variables());
    }

    @Test
    void remotePrefixQuotesEachAssignmentAsOneShellWord() {
        assertEquals("", RankExports.none().remotePrefix());
        assertEquals("env A=plain 'B=two words' 'C=it'\\''s' ",
                RankExports.of(List.of("A=plain", "B=two words", "C=it's"), Map.of()).remotePrefix());
    }

    @Test
    void remoteLineStartsWithTheExportsBeforeTheRankCommand() {
        RankCommand command = RankCommand.of("sperli-rankd", Map.of())
                .withExports(RankExports.of(List.of("OMP_NUM_THREADS=4"), Map.of()));
        assertEquals("env OMP_NUM_THREADS=4 sperli-rankd --jar-sha256 ab .cache/sperli/jars/ab.jar x",
                command.remoteLine("ab", ".cache/sperli/jars/ab.jar", List.of("x")));
    }

    /** What a remote shell makes of the prefix: every value arrives byte for byte, nothing is expanded or run. */
    @Test
    void aPosixShellGivesTheCommandEveryValueAsWritten() throws IOException, InterruptedException {
        String tricky = "it's $(echo run) `echo run` \"q\" \\ $HOME * ; exit 3\nsecond line";
        RankExports exports = RankExports.of(List.of("SPERLI_T=" + tricky), Map.of());
        Process shell = new ProcessBuilder("/bin/sh", "-c", exports.remotePrefix() + "printenv SPERLI_T")
                .redirectErrorStream(true).start();
        String printed = new String(shell.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(shell.waitFor(10, TimeUnit.SECONDS));
        assertEquals(0, shell.exitValue(), printed);
        assertEquals(tricky + "\n", printed);
    }
}
