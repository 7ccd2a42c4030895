package org.sperli.rankd.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sperli.control.ControlFrame;
import org.sperli.control.ControlFrame.RankRef;
import org.sperli.control.ControlFrames;

/**
 * The host agent's life as a process (docs/sperli-agent.md sections 5.4, 5.9, 6.1 and 6.6): READY first, BYE and exit
 * 0 after SHUTDOWN or the end of its input, its directory gone; a rank that ignores SIGTERM killed after the grace; an
 * agent killed outright leaves ranks that end by themselves and a directory that the next agent removes.
 */
@Timeout(90)
class HostAgentLifecycleTest {
    private static final RankRef RANK0 = new RankRef(0, 1);
    private static final RankRef RANK1 = new RankRef(1, 1);

    @TempDir
    Path tmpdir;
    @TempDir
    Path logs;

    @Test
    void readyIsTheFirstFrameWithVersionOneAndTheAgentsPidAndItsDirectoryIsPrivate() throws Exception {
        try (AgentProcess agent = AgentProcess.start(tmpdir, logs)) {
            agent.awaitReady();
            Path own = agent.directory();
            assertEquals(tmpdir, own.getParent());
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(own,
                    LinkOption.NOFOLLOW_LINKS)));
            agent.shutdown();
            assertInstanceOf(ControlFrame.Bye.class, agent.next());
            agent.awaitEnd(AgentProcess.FRAME_BOUND);
            assertEquals(HostAgent.ENDED, agent.exitStatus(AgentProcess.FRAME_BOUND));
        }
    }

    @Test
    void shutdownWithoutRanksSaysByeExitsZeroAndRemovesTheAgentsDirectory() throws Exception {
        try (AgentProcess agent = AgentProcess.start(tmpdir, logs)) {
            agent.awaitReady();
            Path own = agent.directory();
            agent.shutdown();
            assertInstanceOf(ControlFrame.Bye.class, agent.next(), "BYE, the only frame after READY");
            agent.awaitEnd(AgentProcess.FRAME_BOUND);
            assertEquals(HostAgent.ENDED, agent.exitStatus(AgentProcess.FRAME_BOUND));
            assertTrue(Files.notExists(own), own + " is still there");
            assertEquals(List.of(), AgentProcess.agentDirectories(tmpdir));
            assertEquals("", agent.stderr(), "a clean run says nothing on stderr");
        }
    }

    /**
     * The launcher gone (the end of the agent's input): a rank that ignores SIGTERM gets SIGKILL after the 1 s grace,
     * EXITED 137 comes within 2 s, then BYE and exit 0, and neither the rank nor the agent's directory is left.
     */
    @Test
    void theEndOfInputKillsARankThatIgnoresSigtermAfterTheGraceThenSaysByeAndLeavesNothing() throws Exception {
        try (AgentProcess agent = AgentProcess.start(tmpdir, logs)) {
            agent.awaitReady();
            Path own = agent.directory();
            // exec: the rank is one process, as a real rank is, and SIGTERM stays ignored across the exec.
            agent.startShell(0, 1, "trap '' TERM; read -r line; echo ready; exec sleep 60", Descriptions.local(0));
            long rankPid = agent.awaitStarted(RANK0);
            agent.awaitOutput(RANK0, ControlFrames.STDOUT, "ready\n");
            List<ProcessHandle> started = agent.process.descendants().toList();
            assertTrue(started.stream().anyMatch(p -> p.pid() == rankPid), "the rank is the agent's child");

            long closedAt = System.nanoTime();
            agent.closeInput();
            assertEquals(137, agent.awaitExited(RANK0), "SIGKILL after the grace");
            long ms = (System.nanoTime() - closedAt) / 1_000_000;
            assertTrue(ms >= HostAgent.TERMINATE_GRACE_MS - 100, "killed after " + ms + " ms, before the 1 s grace");
            assertTrue(ms <= 3000, "the rank ended " + ms + " ms after the end of input, more than about 2 s");
            assertInstanceOf(ControlFrame.Bye.class, agent.next());
            agent.awaitEnd(AgentProcess.FRAME_BOUND);
            assertEquals(HostAgent.ENDED, agent.exitStatus(AgentProcess.FRAME_BOUND));
            assertTrue(Files.notExists(own), own + " is still there");
            assertEquals(List.of(), started.stream().filter(p -> !AgentProcess.ended(p.pid())).toList(),
                    "processes of the agent still running");
            assertEquals("", agent.stderr());
        }
    }

    /**
     * An agent killed outright: each rank reads the end of its standard input (the agent held the other end) and
     * ends by itself within 3 s; the agent's directory stays until the next agent in that temporary directory starts,
     * which removes it, and leaves alone what is not a dead agent's directory.
     */
    @Test
    void ranksOfAKilledAgentEndAndTheNextAgentRemovesTheDeadAgentsDirectory() throws Exception {
        Path live = Files.createDirectory(tmpdir.resolve(AgentDirectory.PREFIX + ProcessHandle.current().pid()
                + "-live"));
        Path file = Files.writeString(tmpdir.resolve(AgentDirectory.PREFIX + "999999999-file"), "a file");
        Path target = Files.createDirectory(tmpdir.resolve("target"));
        Files.writeString(target.resolve("kept"), "kept");
        Path link = Files.createSymbolicLink(tmpdir.resolve(AgentDirectory.PREFIX + "999999998-link"), target);

        Path dead;
        try (AgentProcess agent = AgentProcess.start(tmpdir, logs)) {
            agent.awaitReady();
            dead = agent.directory();
            // What a real rank does with its standard input: the line, then read until the end, then exit 8.
            String rank = "read -r line; cat >/dev/null; exit 8";
            agent.startShell(0, 1, rank, Descriptions.local(0));
            long pid0 = agent.awaitStarted(RANK0);
            agent.startShell(1, 1, rank, Descriptions.local(1));
            long pid1 = agent.awaitStarted(RANK1);

            agent.process.destroyForcibly();
            agent.exitStatus(AgentProcess.FRAME_BOUND);
            assertTrue(AgentProcess.within(Duration.ofSeconds(3),
                    () -> AgentProcess.ended(pid0) && AgentProcess.ended(pid1)),
                    "ranks of a killed agent still run after 3 s");
            assertTrue(Files.isDirectory(dead), "the killed agent's directory stays until the next agent");
        }

        try (AgentProcess next = AgentProcess.start(tmpdir, logs)) {
            next.awaitReady();
            assertTrue(Files.notExists(dead), dead + " of the killed agent is still there after the next READY");
            Path own = next.directory();
            assertTrue(Files.isDirectory(live), "the directory of a running pid was removed");
            assertTrue(Files.isRegularFile(file), "a file was removed");
            assertTrue(Files.isSymbolicLink(link) && Files.exists(target.resolve("kept")), "a link or its target went");
            next.shutdown();
            assertInstanceOf(ControlFrame.Bye.class, next.next());
            next.awaitEnd(AgentProcess.FRAME_BOUND);
            assertEquals(HostAgent.ENDED, next.exitStatus(AgentProcess.FRAME_BOUND));
            assertTrue(Files.notExists(own));
            assertEquals(List.of(file, link, live).stream().sorted().toList(),
                    AgentProcess.agentDirectories(tmpdir).stream().sorted().toList());
        }
    }
}
