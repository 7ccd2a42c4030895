package org.sperli.rankd.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sperli.control.ControlFrame;
import org.sperli.control.ControlFrame.RankRef;
import org.sperli.control.ControlFrames;
import org.sperli.jobspec.DescriptionLine;
import org.sperli.jobspec.JobSpecSamples;

/**
 * What the host agent does with a rank (docs/sperli-agent.md sections 6.2 to 6.5): its output as OUTPUT frames per
 * stream in order, EXITED after it; its description line alone on a standard input that stays open; its private
 * temporary directory, removed however it ended; SIGNAL; a start that fails. The ranks are shell commands: the agent
 * treats any command alike, and a shell starts in milliseconds.
 */
@Timeout(90)
class HostAgentRankTest {
    private static final RankRef RANK0 = new RankRef(0, 1);

    @TempDir
    Path tmpdir;
    @TempDir
    Path logs;

    @Test
    void outputArrivesPerStreamInOrderThenExitedWithTheStatusAndStartedCarriesTheRanksPid() throws Exception {
        StringBuilder out = new StringBuilder();
        StringBuilder err = new StringBuilder();
        for (int i = 0; i < 300; i++) {
            out.append("out ").append(i).append('\n');
            err.append("err ").append(i).append('\n');
        }
        // More than one OUTPUT frame can hold (64 KiB): the reader refuses a longer one, and the bytes come whole.
        out.append("x".repeat(200_000));
        try (AgentProcess agent = AgentProcess.start(tmpdir, logs)) {
            agent.awaitReady();
            agent.startShell(0, 1, "read -r line; echo $$; i=0; while [ $i -lt 300 ]; do echo \"out $i\";"
                    + " echo \"err $i\" >&2; i=$((i+1)); done; head -c 200000 /dev/zero | tr '\\0' x; exit 5",
                    Descriptions.local(0));
            long pid = agent.awaitStarted(RANK0);
            assertEquals(5, agent.awaitExited(RANK0), "EXITED with the rank's status, after all its output");
            assertEquals(pid + "\n" + out, agent.output(RANK0, ControlFrames.STDOUT),
                    "standard output in order, its first line the shell's own pid");
            assertEquals(err.toString(), agent.output(RANK0, ControlFrames.STDERR), "standard error in order");
            agent.shutdown();
            assertInstanceOf(ControlFrame.Bye.class, agent.next());
            agent.awaitEnd(AgentProcess.FRAME_BOUND);
            assertEquals(HostAgent.ENDED, agent.exitStatus(AgentProcess.FRAME_BOUND));
            assertEquals("", agent.stderr());
        }
    }

    @Test
    void theRankReadsItsDescriptionLineOnStandardInput() throws Exception {
        DescriptionLine line = Descriptions.local(0);
        byte[] copy = line.toBytes();
        String head = new String(copy, 0, 40, StandardCharsets.US_ASCII);
        int length = copy.length;
        try (AgentProcess agent = AgentProcess.start(tmpdir, logs)) {
            agent.awaitReady();
            agent.startShell(0, 1, "read -r line; echo ${#line}; printf '%.40s\\n' \"$line\"", line);
            agent.awaitStarted(RANK0);
            assertEquals(0, agent.awaitExited(RANK0));
            assertEquals((length - 1) + "\n" + head + "\n", agent.output(RANK0, ControlFrames.STDOUT),
                    "the line without its line feed");
            agent.shutdown();
            assertInstanceOf(ControlFrame.Bye.class, agent.next());
            assertEquals(HostAgent.ENDED, agent.exitStatus(AgentProcess.FRAME_BOUND));
        }
    }

    /**
     * After its line the rank's standard input stays open and carries nothing more: a rank reading on finds its end
     * only when the agent ends (here killed outright, so that no signal of the agent's comes first).
     */
    @Test
    void theRanksStandardInputCarriesOnlyTheLineAndStaysOpenUntilTheAgentEnds() throws Exception {
        Path mark = logs.resolve("mark");
        Path rest = logs.resolve("mark.rest");
        try (AgentProcess agent = AgentProcess.start(tmpdir, logs)) {
            agent.awaitReady();
            agent.start(0, 1, List.of("/bin/sh", "-c", "read -r line; cat > \"$MARK.rest\"; echo eof > \"$MARK\""),
                    List.of("MARK=" + mark), Descriptions.local(0));
            long pid = agent.awaitStarted(RANK0);
            assertEquals(Optional.empty(), agent.poll(Duration.ofMillis(1500)), "the rank ended or said something");
            assertTrue(Files.notExists(mark), "the rank's standard input ended while the agent runs");
            assertEquals("", Files.readString(rest), "bytes after the description line");

            agent.process.destroyForcibly();
            agent.exitStatus(AgentProcess.FRAME_BOUND);
            assertTrue(AgentProcess.within(Duration.ofSeconds(3), () -> Files.exists(mark) && AgentProcess.ended(pid)),
                    "the rank did not see the end of its input within 3 s of the agent's end");
            assertEquals("eof\n", Files.readString(mark));
            assertEquals("", Files.readString(rest));
        }
    }

    /**
     * SPERLI_RANK_TMPDIR and TMPDIR name the rank's private directory (0700, in the agent's), set after the START's
     * own environment changes; a rank killed by SIGNAL 9 is EXITED 137 and its directory goes with what it held.
     */
    @Test
    void theRankGetsAPrivateTemporaryDirectoryThatGoesWhenItIsKilled() throws Exception {
        try (AgentProcess agent = AgentProcess.start(tmpdir, logs)) {
            agent.awaitReady();
            Path own = agent.directory();
            agent.start(0, 1, List.of("/bin/sh", "-c", "read -r line; echo \"$SPERLI_RANK_TMPDIR\"; echo \"$TMPDIR\";"
                    + " echo \"${" + AgentProcess.INHERITED + "-removed}\"; echo \"$GREETING\";"
                    + " echo kept > \"$TMPDIR/file\"; echo written; exec sleep 60"),
                    List.of("TMPDIR=/elsewhere", "SPERLI_RANK_TMPDIR=/elsewhere", AgentProcess.INHERITED,
                            "GREETING=hello=world"),
                    Descriptions.local(0));
            agent.awaitStarted(RANK0);
            agent.awaitOutput(RANK0, ControlFrames.STDOUT, "written\n");
            List<String> lines = agent.output(RANK0, ControlFrames.STDOUT).lines().toList();
            Path rankDir = Path.of(lines.get(0));
            assertEquals(List.of(rankDir.toString(), rankDir.toString(), "removed", "hello=world", "written"), lines,
                    "both variables the rank's directory, whatever the START said; a bare name removed");
            assertEquals(own, rankDir.getParent());
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(rankDir,
                    LinkOption.NOFOLLOW_LINKS)));
            assertEquals("kept\n", Files.readString(rankDir.resolve("file")));

            agent.signal(0, 1, ControlFrames.SIGKILL);
            assertEquals(137, agent.awaitExited(RANK0));
            assertTrue(AgentProcess.within(Duration.ofSeconds(5), () -> Files.notExists(rankDir)),
                    rankDir + " of the killed rank is still there");
            assertTrue(Files.isDirectory(own), "the agent's own directory stays while it runs");
            agent.shutdown();
            assertInstanceOf(ControlFrame.Bye.class, agent.next());
            agent.awaitEnd(AgentProcess.FRAME_BOUND);
            assertEquals(HostAgent.ENDED, agent.exitStatus(AgentProcess.FRAME_BOUND));
            assertTrue(Files.notExists(own));
        }
    }

    /** SIGNAL 15 reaches the rank (which traps it); a SIGNAL for no running rank of that incarnation is ignored. */
    @Test
    void signalReachesTheRankAndASignalForNoRunningRankIsIgnored() throws Exception {
        try (AgentProcess agent = AgentProcess.start(tmpdir, logs)) {
            agent.awaitReady();
            agent.startShell(0, 1, "trap 'exit 8' TERM; read -r line; echo ready; while :; do sleep 0.1; done",
                    Descriptions.local(0));
            agent.awaitStarted(RANK0);
            agent.awaitOutput(RANK0, ControlFrames.STDOUT, "ready\n");
            agent.signal(7, 1, ControlFrames.SIGKILL);
            agent.signal(0, 0, ControlFrames.SIGKILL);
            agent.signal(0, 2, ControlFrames.SIGTERM);
            assertEquals(Optional.empty(), agent.poll(Duration.ofMillis(500)),
                    "a SIGNAL for another rank or incarnation reached rank 0");
            agent.signal(0, 1, ControlFrames.SIGTERM);
            assertEquals(8, agent.awaitExited(RANK0), "the rank's own TERM trap");
            agent.signal(0, 1, ControlFrames.SIGTERM);
            agent.shutdown();
            assertInstanceOf(ControlFrame.Bye.class, agent.next(), "the agent goes on after SIGNALs to no rank");
            agent.awaitEnd(AgentProcess.FRAME_BOUND);
            assertEquals(HostAgent.ENDED, agent.exitStatus(AgentProcess.FRAME_BOUND));
            assertEquals("", agent.stderr());
        }
    }

    /**
     * A command that does not exist: FAILED naming it (not the description), no STARTED, no rank directory left; the
     * agent goes on, and the same rank may start again (a word without a slash is looked up on PATH).
     */
    @Test
    void aCommandThatCannotStartIsFailedNamingItAndTheAgentGoesOn() throws Exception {
        String missing = tmpdir.resolve("no-such-program").toString();
        try (AgentProcess agent = AgentProcess.start(tmpdir, logs)) {
            agent.awaitReady();
            Path own = agent.directory();
            agent.start(0, 1, List.of(missing, "arg"), List.of(), Descriptions.local(0));
            ControlFrame.Failed failed = assertInstanceOf(ControlFrame.Failed.class, agent.next());
            assertEquals(RANK0, failed.ref());
            assertTrue(failed.reason().contains(missing), failed.reason());
            assertTrue(!failed.reason().contains("\n"), "one line: " + failed.reason());
            assertSecretsAbsent(failed.reason());
            try (var entries = Files.list(own)) {
                assertEquals(List.of(), entries.toList(), "the failed rank's directory is left");
            }

            agent.start(0, 1, List.of("sh", "-c", "read -r line; echo again"), List.of(), Descriptions.local(0));
            agent.awaitStarted(RANK0);
            assertEquals(0, agent.awaitExited(RANK0));
            assertEquals("again\n", agent.output(RANK0, ControlFrames.STDOUT));
            agent.shutdown();
            assertInstanceOf(ControlFrame.Bye.class, agent.next());
            agent.awaitEnd(AgentProcess.FRAME_BOUND);
            assertEquals(HostAgent.ENDED, agent.exitStatus(AgentProcess.FRAME_BOUND));
            assertTrue(Files.notExists(own));
        }
    }

    /**
     * A grandchild that holds the rank's pipes after the rank exited: EXITED comes at most 2 s after the exit, and
     * what the grandchild writes later is not sent (no frame of the rank after its EXITED).
     */
    @Test
    void outputAfterTheDrainLimitIsNotSentAfterExited() throws Exception {
        long grandchild = -1;
        try (AgentProcess agent = AgentProcess.start(tmpdir, logs)) {
            agent.awaitReady();
            agent.startShell(0, 1, "read -r line; sh -c 'echo grandchild $$; sleep 3; echo late; echo late >&2' &"
                    + " sleep 0.2; exit 0", Descriptions.local(0));
            agent.awaitStarted(RANK0);
            agent.awaitOutput(RANK0, ControlFrames.STDOUT, "\n");
            grandchild = Long.parseLong(agent.output(RANK0, ControlFrames.STDOUT).strip().split(" ")[1]);
            long before = System.nanoTime();
            assertEquals(0, agent.awaitExited(RANK0));
            long ms = (System.nanoTime() - before) / 1_000_000;
            assertTrue(ms < 2000 + 1500, "EXITED " + ms + " ms after the output, more than the 2 s drain");
            assertEquals(Optional.empty(), agent.poll(Duration.ofMillis(3500)), "a frame after the rank's EXITED");
            agent.shutdown();
            assertInstanceOf(ControlFrame.Bye.class, agent.next());
            agent.awaitEnd(AgentProcess.FRAME_BOUND);
            assertEquals(HostAgent.ENDED, agent.exitStatus(AgentProcess.FRAME_BOUND));
        } finally {
            if (grandchild > 0) {
                ProcessHandle.of(grandchild).ifPresent(ProcessHandle::destroyForcibly);
            }
        }
    }

    /** A rank that has been reported EXITED is no longer running: a START of the same rank right after is taken. */
    @Test
    void aStartRightAfterTheRanksExitedIsNotADuplicate() throws Exception {
        try (AgentProcess agent = AgentProcess.start(tmpdir, logs)) {
            agent.awaitReady();
            for (int i = 0; i < 30; i++) {
                agent.startShell(0, 1, "read -r line; exit 3", Descriptions.local(0));
                agent.awaitStarted(RANK0);
                assertEquals(3, agent.awaitExited(RANK0), "run " + i);
            }
            agent.shutdown();
            assertInstanceOf(ControlFrame.Bye.class, agent.next());
            assertEquals(HostAgent.ENDED, agent.exitStatus(AgentProcess.FRAME_BOUND));
            assertEquals("", agent.stderr());
        }
    }

    /** Neither the sample key's marker nor its hex digits, as they stand in a description line. */
    static void assertSecretsAbsent(String text) {
        String hex = HexFormat.of().formatHex(JobSpecSamples.KEY_MARKER.getBytes(StandardCharsets.US_ASCII));
        assertTrue(!text.contains(JobSpecSamples.KEY_MARKER) && !text.contains(hex), "a secret shown: " + text);
    }
}
