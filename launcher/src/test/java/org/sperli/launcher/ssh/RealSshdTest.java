package org.sperli.launcher.ssh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sperli.launcher.LauncherHarness;

/**
 * 24 ranks on one host whose SSH server is Debian's OpenSSH with its default limits (10 sessions per connection): the
 * launcher logs in once, stages the rank daemon, and starts one host agent, which starts all 24. A launcher that
 * opened a channel per rank failed at the 11th with "open failed".
 */
class RealSshdTest {
    private static final int RANKS = 24;

    @TempDir
    Path dir;
    private OpenSshd sshd;
    private HomeCache cache;

    @BeforeEach
    void startSshd() throws Exception {
        String why = OpenSshd.unavailable().orElse(null);
        assumeTrue(why == null, "skipped: " + why);
        cache = HomeCache.snapshot();
        sshd = OpenSshd.start(Files.createDirectory(dir.resolve("sshd")), dir.resolve("ssh"),
                System.getProperty("user.name"));
    }

    @AfterEach
    void stopSshd() throws Exception {
        if (sshd == null) {
            return;
        }
        sshd.close();
        LauncherHarness.killDescendants();
        cache.removeAdded();
    }

    @Test
    void twentyFourRanksOnAStockOpenSshServerRunOverOneLoginAndOneChannelForTheirAgent() throws Exception {
        Path jar = LauncherHarness.testJar(dir);
        int base = LauncherHarness.freePortRange(RANKS);

        LauncherHarness.Run run = LauncherHarness.run(LauncherHarness.environment(Map.of(RankdClasspath.VARIABLE,
                StagedRankdTest.rankdAllJar().toString())), "run", "--ssh", "--ssh-dir", dir.resolve("ssh").toString(),
                "--remote-java", Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--port-base", Integer.toString(base), "--hosts", "localhost/" + RANKS, jar.toString());

        assertEquals(0, run.exitCode(), run.out() + run.err() + "\nsshd:\n" + sshd.log());
        for (int rank = 0; rank < RANKS; rank++) {
            assertTrue(run.out().contains("[rank " + rank + "] "), "no output of rank " + rank + ": " + run.out());
        }
        assertEquals(1, sshd.logins(), "logins accepted by sshd:\n" + sshd.log());
        sshd.assertNothingLeftButItself();
    }


}
