package org.sperli.launcher.ssh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sperli.launcher.LauncherHarness;
import org.sperli.launcher.exit.ExitCodes;
import org.sperli.launcher.exit.LauncherException;

/**
 * {@code --ssh-command} and {@value SshCommand#VARIABLE}: the option wins, host-key checking weaker than the
 * launcher's is refused in one line before anything starts (exit status 2), an empty command too, and a program that
 * is not there ends the start in one line naming it (exit status 4).
 */
class SshCommandTest {
    private static final String NO_LINE = "sperli: --ssh-command: StrictHostKeyChecking=%s accepts any host key, a"
            + " changed one too, which the launcher never does; StrictHostKeyChecking=accept-new with"
            + " --accept-new-host-keys records new keys and still refuses changed ones\n";
    private static final String ACCEPT_NEW_LINE = "sperli: %s: StrictHostKeyChecking=accept-new records host keys not"
            + " yet known; give --accept-new-host-keys to allow that\n";

    @TempDir
    Path dir;

    @AfterEach
    void nothingLeft() {
        LauncherHarness.assertNoProcessLeft();
    }

    private LauncherHarness.Run run(Map<String, String> env, String... args) throws IOException {
        Path jar = LauncherHarness.testJar(dir);
        List<String> all = new java.util.ArrayList<>(List.of("run"));
        all.addAll(List.of(args));
        all.addAll(List.of("--hosts", "node01/2", jar.toString()));
        return LauncherHarness.run(LauncherHarness.environment(env), all.toArray(String[]::new));
    }

    @Test
    void theOptionWinsOverTheVariableAndABlankVariableIsNone() {
        Map<String, String> env = Map.of(SshCommand.VARIABLE, "ssh -p 2222");

        assertEquals(List.of("ssh", "-o", "BatchMode=yes", "node01", "true"),
                SshCommand.of("ssh -o BatchMode=yes", env, false).orElseThrow().argv("node01", "true"));
        assertEquals(List.of("ssh", "-p", "2222", "node01", "true"),
                SshCommand.of(null, env, false).orElseThrow().argv("node01", "true"));
        assertEquals(SshCommand.VARIABLE, SshCommand.of(null, env, false).orElseThrow().source());
        assertEquals(Optional.empty(), SshCommand.of(null, Map.of(SshCommand.VARIABLE, "  "), false));
        assertEquals(Optional.empty(), SshCommand.of(null, Map.of(), true));
    }

    @Test
    void everySpellingOfStrictHostKeyCheckingNoIsRefusedAcceptNewOnlyWithTheOption() {
        for (String words : List.of("ssh -o StrictHostKeyChecking=no", "ssh -oStrictHostKeyChecking=no",
                "ssh -o 'StrictHostKeyChecking no'", "ssh -o stricthostkeychecking=NO",
                "ssh -o 'StrictHostKeyChecking = off'", "ssh -o StrictHostKeyChecking=false")) {
            for (boolean acceptNew : List.of(false, true)) {
                LauncherException e = assertThrows(LauncherException.class, () -> SshCommand.of(words, Map.of(),
                        acceptNew), words);
                assertEquals(ExitCodes.USAGE, e.exitCode(), words);
                assertTrue(e.getMessage().startsWith("--ssh-command: StrictHostKeyChecking="), e.getMessage());
            }
        }
        LauncherException e = assertThrows(LauncherException.class,
                () -> SshCommand.of("ssh -o StrictHostKeyChecking=accept-new", Map.of(), false));
        assertEquals(ExitCodes.USAGE, e.exitCode());
        assertTrue(SshCommand.of("ssh -o StrictHostKeyChecking=accept-new", Map.of(), true).isPresent());
        assertTrue(SshCommand.of("ssh -o StrictHostKeyChecking=yes -o BatchMode=yes", Map.of(), false).isPresent());
    }

    @Test
    void strictHostKeyCheckingNoIsOneLineAndStatus2BeforeAnythingStarts() throws Exception {
        LauncherHarness.Run run = run(Map.of(), "--ssh-command", "ssh -o StrictHostKeyChecking=no");

        assertEquals(ExitCodes.USAGE, run.exitCode(), run.err());
        assertEquals(String.format(NO_LINE, "no"), run.err());
    }

    @Test
    void strictHostKeyCheckingNoIsRefusedEvenWithAcceptNewHostKeys() throws Exception {
        LauncherHarness.Run run = run(Map.of(), "--accept-new-host-keys", "--ssh-command",
                "ssh -o 'StrictHostKeyChecking off'");

        assertEquals(ExitCodes.USAGE, run.exitCode(), run.err());
        assertEquals(String.format(NO_LINE, "off"), run.err());
    }

    @Test
    void acceptNewInTheVariableIsRefusedWithoutAcceptNewHostKeys() throws Exception {
        LauncherHarness.Run run = run(Map.of(SshCommand.VARIABLE, "ssh -o StrictHostKeyChecking=accept-new"));

        assertEquals(ExitCodes.USAGE, run.exitCode(), run.err());
        assertEquals(String.format(ACCEPT_NEW_LINE, SshCommand.VARIABLE), run.err());
    }

    @Test
    void anEmptyCommandIsOneLineAndStatus2() throws Exception {
        LauncherHarness.Run run = run(Map.of(SshCommand.VARIABLE, "ssh"), "--ssh-command", " ");

        assertEquals(ExitCodes.USAGE, run.exitCode(), run.err());
        assertEquals("sperli: --ssh-command is empty: give the ssh program and its options, such as"
                + " 'ssh -o BatchMode=yes'\n", run.err());
    }

    @Test
    void aProgramThatIsNotThereEndsTheStartInOneLineNamingIt() throws Exception {
        LauncherHarness.Run run = run(Map.of(), "--ssh-command", "sperli-no-such-ssh -o BatchMode=yes");

        assertEquals(ExitCodes.START_FAILED, run.exitCode(), run.err());
        String last = run.errLines().get(run.errLines().size() - 1);
        assertTrue(last.contains(": --ssh-command: program sperli-no-such-ssh not found on the PATH; ranks 2,"),
                run.err());
        assertTrue(!run.err().contains("\tat "), run.err());

        Path notExecutable = Files.writeString(dir.resolve("ssh"), "#!/bin/sh\n");
        LauncherException e = assertThrows(LauncherException.class,
                () -> SshCommand.of(notExecutable + " -v", Map.of(), false).orElseThrow().checkProgram("/usr/bin"));
        assertEquals(ExitCodes.START_FAILED, e.exitCode());
        assertEquals("--ssh-command: program " + notExecutable + " is not an executable file", e.getMessage());
    }
}
