package org.sperli.launcher.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sperli.launcher.LauncherHarness.Run;
import org.sperli.launcher.LauncherHarness;
import org.sperli.launcher.exit.ExitCodes;

/**
 * Refused hosts stop the launch before anything starts: H1615 per refused host naming the rule and its source,
 * exit status 3. The rank command here would leave a marker file if any rank were started.
 */
class RefusedHostsTest {
    @TempDir
    Path dir;

    @AfterEach
    void noProcess() {
        LauncherHarness.assertNoProcessLeft();
    }

    private Run run(Map<String, String> env, String... hostsAndMore) throws IOException {
        Path marker = dir.resolve("a-rank-started");
        String rankd = "/bin/sh -c 'touch " + marker + "' sh";
        String[] args = new String[hostsAndMore.length + 4];
        args[0] = "run";
        args[1] = "--rankd";
        args[2] = rankd;
        System.arraycopy(hostsAndMore, 0, args, 3, hostsAndMore.length);
        args[args.length - 1] = LauncherHarness.testJar(dir).toString();
        Run run = LauncherHarness.run(LauncherHarness.environment(env), args);
        assertFalse(Files.exists(marker), "a rank was started");
        return run;
    }

    @Test
    void refusesAHostBelowANameOfTheVariable() throws IOException {
        Run run = run(Map.of("SPERLI_REFUSED_HOSTS", "example.org, other.net"),
                "--hosts", "localhost,A.Example.ORG.,localhost");

        assertEquals(ExitCodes.HOST_REFUSED, run.exitCode(), run.err());
        assertTrue(run.err().contains("sperli: H1615 host refused: host 'a.example.org' is below 'example.org' from"
                + " SPERLI_REFUSED_HOSTS (rank 1 from --hosts entry 2)"), run.err());
        assertTrue(run.err().contains("nothing was started: 1 refused host"), run.err());
    }

    @Test
    void refusesTheBuiltInReservedNamesWithoutAnyConfiguration() throws IOException {
        Run run = run(Map.of(), "--hosts", "host-a.invalid,localhost,host-b.invalid");

        assertEquals(ExitCodes.HOST_REFUSED, run.exitCode(), run.err());
        assertTrue(run.err().contains("host 'host-a.invalid' is 'host-a.invalid' from the built-in reserved names"
                + " (rank 0 from --hosts entry 1)"), run.err());
        assertTrue(run.err().contains("host 'host-b.invalid' is 'host-b.invalid' from the built-in reserved names"
                + " (rank 2 from --hosts entry 3)"), run.err());
    }

    @Test
    void refusesNamesOfTheDenyFileAndNamesEveryRefusedEntry() throws IOException {
        Path deny = Files.writeString(dir.resolve("deny"), "# lab machines\n\nbad.host  # broken\n10.0.0.9\n");
        Path hostfile = Files.writeString(dir.resolve("hosts"),
                "localhost\nBAD.HOST slots=2\n10.0.0.9\nhost-a.invalid\n");

        Run run = run(Map.of("SPERLI_REFUSED_HOSTS", "nothing.example"),
                "--deny-hosts", deny.toString(), "--hostfile", hostfile.toString());

        assertEquals(ExitCodes.HOST_REFUSED, run.exitCode(), run.err());
        assertTrue(run.err().contains("host 'bad.host' is 'bad.host' from deny file " + deny + " line 3 (rank 1 from"
                + " hostfile " + hostfile + " line 2, rank 2 from hostfile " + hostfile + " line 2)"), run.err());
        assertTrue(run.err().contains("host '10.0.0.9' is the address '10.0.0.9' from deny file " + deny
                + " line 4 (rank 3"), run.err());
        assertTrue(run.err().contains("host 'host-a.invalid' is 'host-a.invalid' from the built-in reserved names"),
                run.err());
        assertTrue(run.err().contains("nothing was started: 3 refused hosts"), run.err());
    }

    @Test
    void aMissingDenyFileLeavesTheOtherSourcesInForce() throws IOException {
        Run run = run(Map.of("SPERLI_REFUSED_HOSTS", "node7"),
                "--deny-hosts", dir.resolve("missing").toString(), "--hosts", "node7,localhost");

        assertEquals(ExitCodes.HOST_REFUSED, run.exitCode(), run.err());
        assertTrue(run.err().contains("does not exist; only SPERLI_REFUSED_HOSTS and the built-in names are refused"),
                run.err());
        assertTrue(run.err().contains("host 'node7' is 'node7' from SPERLI_REFUSED_HOSTS"), run.err());
    }
}
