package org.sperli.rankd.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.sperli.control.ControlFrame.RankRef;
import org.sperli.control.ControlFrames;
import org.sperli.protocol.LeBytes;

/**
 * A control stream the host agent refuses (docs/sperli-agent.md sections 4, 6.2 and 6.7): one line on stderr naming
 * the fault, its running rank ended and reported, no BYE, exit status 3, at once (not when the input ends); and a
 * command line it refuses (section 2): one line, exit status 2, nothing on standard output. Never a stack trace.
 */
@Timeout(90)
class HostAgentRefusalTest {
    private static final RankRef RANK0 = new RankRef(0, 1);

    @TempDir
    Path tmpdir;
    @TempDir
    Path logs;

    /** What the launcher sends after rank 0 (incarnation 1) runs. */
    @FunctionalInterface
    private interface Fault {
        void send(AgentProcess agent) throws IOException;
    }

    static Stream<Arguments> refusals() {
        return Stream.of(
                Arguments.of("a cut frame: length 100, the stream ends after 10 bytes", (Fault) a -> {
                    a.send(LeBytes.le().u32(100).u8(ControlFrames.START).bytes(new byte[9]).toBytes());
                    a.closeInput();
                }, "cut frame"),
                Arguments.of("a length of 0xffffffff, the input left open", (Fault) a ->
                        a.send(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff}),
                        "frame length 4294967295 is not in 1.." + ControlFrames.MAX_LAUNCHER_FRAME),
                Arguments.of("garbage: a line of text", (Fault) a ->
                        a.send("hello, agent\n".getBytes(StandardCharsets.US_ASCII)), "frame length"),
                Arguments.of("an unknown type 0x7f", (Fault) a ->
                        a.send(LeBytes.le().u32(1).u8(0x7f).toBytes()), "unknown frame type 0x7f"),
                Arguments.of("BYE (0x86), a frame an agent sends", (Fault) a ->
                        a.send(LeBytes.le().u32(1).u8(ControlFrames.BYE).toBytes()), "0x86 is sent by an agent"),
                Arguments.of("a START whose description is for host node9", (Fault) a ->
                        a.startShell(1, 1, "exit 0", Descriptions.line(1, 1, "localhost", "node9")),
                        "is for host node9"),
                Arguments.of("a START for rank 1 with rank 0's description", (Fault) a ->
                        a.startShell(1, 1, "exit 0", Descriptions.local(0)), "carries the description of rank 0"),
                Arguments.of("a START of incarnation 2 with a description of incarnation 1", (Fault) a ->
                        a.startShell(1, 2, "exit 0", Descriptions.local(1)),
                        "carries the description of rank 1 (incarnation 1)"),
                Arguments.of("a second START for the running rank", (Fault) a ->
                        a.startShell(0, 1, "exit 0", Descriptions.local(0)), "running already"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusals")
    void aRefusedControlStreamEndsTheRanksAndTheAgentWithStatusThreeAndOneLine(String what, Fault fault,
                                                                                String named) throws Exception {
        try (AgentProcess agent = AgentProcess.start(tmpdir, logs)) {
            agent.awaitReady();
            Path own = agent.directory();
            agent.startShell(0, 1, "read -r line; echo ready; exec sleep 60", Descriptions.local(0));
            long rankPid = agent.awaitStarted(RANK0);
            agent.awaitOutput(RANK0, ControlFrames.STDOUT, "ready\n");

            fault.send(agent);
            assertEquals(143, agent.awaitExited(RANK0), "the running rank ended by SIGTERM and reported");
            agent.awaitEnd(AgentProcess.FRAME_BOUND);
            assertEquals(HostAgent.REFUSED, agent.exitStatus(AgentProcess.FRAME_BOUND), agent.stderr());
            List<String> lines = agent.stderrLines();
            assertEquals(1, lines.size(), "one line on stderr:\n" + agent.stderr());
            assertTrue(lines.get(0).startsWith(AgentProcess.REFUSED_PREFIX), lines.get(0));
            assertTrue(lines.get(0).contains(named), "the line names the fault ('" + named + "'): " + lines.get(0));
            HostAgentRankTest.assertSecretsAbsent(agent.stderr());
            agent.assertNoStackTrace();
            assertTrue(AgentProcess.ended(rankPid), "the rank still runs");
            assertTrue(Files.notExists(own), own + " is still there");
        }
    }

    static Stream<Arguments> badCommandLines() {
        return Stream.of(
                Arguments.of(List.of("--host-agent"), "no --host given"),
                Arguments.of(List.of("--host-agent", "--host"), "--host needs a name"),
                Arguments.of(List.of("--host-agent", "--host", "localhost", "--verbose"), "unknown argument"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badCommandLines")
    void aRefusedCommandLineExitsTwoWithOneUsageLineAndNothingOnStandardOutput(List<String> args, String named)
            throws Exception {
        try (AgentProcess agent = AgentProcess.start(tmpdir, logs, args)) {
            agent.awaitEnd(AgentProcess.START_BOUND);
            assertEquals(HostAgent.USAGE, agent.exitStatus(AgentProcess.FRAME_BOUND));
            List<String> lines = agent.stderrLines();
            assertEquals(1, lines.size(), "one line on stderr:\n" + agent.stderr());
            assertTrue(lines.get(0).contains(named) && lines.get(0).contains(AgentArguments.USAGE), lines.get(0));
            agent.assertNoStackTrace();
            assertEquals(List.of(), AgentProcess.agentDirectories(tmpdir), "a refused agent made its directory");
        }
    }
}
