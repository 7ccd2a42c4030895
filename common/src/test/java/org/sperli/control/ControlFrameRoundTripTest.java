package org.sperli.control;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sperli.control.ControlStreams.agentFrames;
import static org.sperli.control.ControlStreams.all;
import static org.sperli.control.ControlStreams.frame;
import static org.sperli.control.ControlStreams.launcherFrames;
import static org.sperli.control.ControlStreams.line;
import static org.sperli.control.ControlStreams.ref;
import static org.sperli.control.ControlStreams.string;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sperli.control.ControlFrame.RankRef;
import org.sperli.jobspec.DescriptionLine;
import org.sperli.jobspec.JobDescription;
import org.sperli.jobspec.JobSpecSamples;
import org.sperli.protocol.LeBytes;
import org.sperli.protocol.Limits;

/** Every frame type written by {@link ControlFrames} reads back as written, and is laid out as documented. */
class ControlFrameRoundTripTest {
    private static final List<String> ARGV = List.of("sperli-rankd", "--jar-sha256", "ab".repeat(32),
            ".cache/sperli/jars/job with space.jar", "grüße");
    private static final List<String> ENV = List.of("SPERLI_TLS_ENGINE=jdk", "SPERLI_DEBUG", "EMPTY=", "A=b=c");

    private static byte[] start(int rank, long incarnation, List<String> argv, List<String> env, DescriptionLine line)
            throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ControlFrames.writeStart(out, rank, incarnation, argv, env, line);
        return out.toByteArray();
    }

    @Test
    void aStartReadsBackWithItsCommandEnvironmentAndDescription() throws IOException {
        DescriptionLine line = line(3, 2);
        ControlFrame.Start start = assertInstanceOf(ControlFrame.Start.class,
                launcherFrames(start(2, 7, ARGV, ENV, line)).next());
        assertEquals(new RankRef(2, 7), start.ref());
        assertEquals(ARGV, start.argv());
        assertEquals(ENV, start.env());
        assertArrayEquals(line.toBytes(), start.description());
        assertTrue(start.fromLauncher());
    }

    @Test
    void aStartWithoutEnvironmentChangesHasEnvcZero() throws IOException {
        ControlFrame.Start start = assertInstanceOf(ControlFrame.Start.class,
                launcherFrames(start(0, 1, List.of("rank"), List.of(), line(1, 0))).next());
        assertEquals(List.of("rank"), start.argv());
        assertEquals(List.of(), start.env());
    }

    @Test
    void aStartIsLaidOutFieldByFieldAsDocumented() throws IOException {
        DescriptionLine line = line(2, 1);
        byte[] description = line.toBytes();
        LeBytes body = ref(1, 3).u16(2);
        string(body, "rank");
        string(body, "é");
        body.u16(1);
        string(body, "X=1");
        body.u32(description.length).bytes(description);
        assertArrayEquals(frame(ControlFrames.START, body.toBytes()),
                start(1, 3, List.of("rank", "é"), List.of("X=1"), line));
    }

    @Test
    void aStartsDescriptionIsNeverShown() throws IOException {
        ControlFrame start = launcherFrames(start(1, 1, ARGV, ENV, line(2, 1))).next();
        assertEquals("Start[rank 1 (incarnation 1), 5 words, description redacted]", start.toString());
        assertFalse(start.toString().contains(JobSpecSamples.KEY_MARKER));
    }

    @Test
    void wipingAStartZeroesItsDescription() throws IOException {
        ControlFrame.Start start = (ControlFrame.Start) launcherFrames(start(1, 1, ARGV, ENV, line(2, 1))).next();
        start.wipe();
        assertArrayEquals(new byte[start.description().length], start.description());
    }

    @Test
    void aStartRefusesNoWordsAndTooManyWords() {
        DescriptionLine line = line(1, 0);
        String[] many = new String[ControlFrames.MAX_WORDS + 1];
        Arrays.fill(many, "x");
        assertThrows(IllegalArgumentException.class, () -> start(0, 1, List.of(), List.of(), line));
        assertThrows(IllegalArgumentException.class, () -> start(0, 1, List.of(many), List.of(), line));
        assertThrows(IllegalArgumentException.class, () -> start(0, 1, List.of("x"), List.of(many), line));
    }

    @Test
    void aStartRefusesACommandOverItsLimit() {
        String word = "w".repeat(ControlFrames.MAX_COMMAND_BYTES / 2);
        assertThrows(IllegalArgumentException.class, () -> start(0, 1, List.of(word), List.of(word), line(1, 0)));
    }

    @Test
    void theFramesOfTheLauncherReadBackInOrder() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ControlFrames.writeSignal(out, 3, 2, ControlFrames.SIGTERM);
        ControlFrames.writeSignal(out, 4, 9, ControlFrames.SIGKILL);
        ControlFrames.writeShutdown(out);
        assertEquals(List.of(new ControlFrame.Signal(new RankRef(3, 2), 15),
                new ControlFrame.Signal(new RankRef(4, 9), 9), new ControlFrame.Shutdown()),
                all(launcherFrames(out.toByteArray())));
    }

    @Test
    void theFramesOfTheAgentReadBackInOrder() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ControlFrames.writeReady(out, 4711);
        ControlFrames.writeStarted(out, 0, 1, Long.MAX_VALUE);
        byte[] data = "hello\nwor".getBytes(StandardCharsets.UTF_8);
        ControlFrames.writeOutput(out, 0, 1, ControlFrames.STDOUT, data, 0, data.length);
        ControlFrames.writeOutput(out, 0, 1, ControlFrames.STDERR, data, 6, 3);
        ControlFrames.writeExited(out, 0, 1, 255);
        ControlFrames.writeFailed(out, 4095, Long.MAX_VALUE, "cannot run program \"sperli-rankd\": error=2");
        ControlFrames.writeFailed(out, 1, 1, "");
        ControlFrames.writeBye(out);
        List<ControlFrame> frames = all(agentFrames(out.toByteArray()));
        assertEquals(8, frames.size());
        assertEquals(new ControlFrame.Ready(ControlFrames.VERSION, 4711), frames.get(0));
        assertEquals(new ControlFrame.Started(new RankRef(0, 1), Long.MAX_VALUE), frames.get(1));
        ControlFrame.Output stdout = (ControlFrame.Output) frames.get(2);
        assertEquals(new RankRef(0, 1), stdout.ref());
        assertEquals(ControlFrames.STDOUT, stdout.stream());
        assertArrayEquals(data, stdout.data());
        ControlFrame.Output stderr = (ControlFrame.Output) frames.get(3);
        assertEquals(ControlFrames.STDERR, stderr.stream());
        assertArrayEquals("wor".getBytes(StandardCharsets.UTF_8), stderr.data());
        assertEquals(new ControlFrame.Exited(new RankRef(0, 1), 255), frames.get(4));
        assertEquals(new ControlFrame.Failed(new RankRef(4095, Long.MAX_VALUE),
                "cannot run program \"sperli-rankd\": error=2"), frames.get(5));
        assertEquals(new ControlFrame.Failed(new RankRef(1, 1), ""), frames.get(6));
        assertEquals(new ControlFrame.Bye(), frames.get(7));
        assertTrue(frames.stream().noneMatch(ControlFrame::fromLauncher));
    }

    @Test
    void anOutputOfTheMostDataIsTheLargestAgentFrame() throws IOException {
        byte[] data = new byte[ControlFrames.MAX_OUTPUT];
        Arrays.fill(data, (byte) 'x');
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ControlFrames.writeOutput(out, 1, 1, ControlFrames.STDOUT, data, 0, data.length);
        assertEquals(ControlFrames.LENGTH_FIELD + ControlFrames.MAX_AGENT_FRAME, out.size());
        assertArrayEquals(data, ((ControlFrame.Output) agentFrames(out.toByteArray()).next()).data());
    }

    @Test
    void anOutputRefusesNoDataAndTooMuch() {
        byte[] data = new byte[ControlFrames.MAX_OUTPUT + 1];
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertThrows(IllegalArgumentException.class, () -> ControlFrames.writeOutput(out, 0, 1, 1, data, 0, 0));
        assertThrows(IllegalArgumentException.class,
                () -> ControlFrames.writeOutput(out, 0, 1, 1, data, 0, data.length));
        assertEquals(0, out.size());
    }

    @Test
    void aLongFailedReasonIsCutToItsLimit() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ControlFrames.writeFailed(out, 0, 1, "r".repeat(ControlFrames.MAX_REASON + 100));
        assertEquals("r".repeat(ControlFrames.MAX_REASON), ((ControlFrame.Failed) agentFrames(out.toByteArray())
                .next()).reason());
    }

    @Test
    void aLongFailedReasonIsCutBeforeACharacterThatDoesNotFitWhole() throws IOException {
        for (String end : List.of("é", "€", "😀")) {
            String head = "r".repeat(ControlFrames.MAX_REASON - 1);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ControlFrames.writeFailed(out, 0, 1, head + end + "tail");
            assertEquals(head, ((ControlFrame.Failed) agentFrames(out.toByteArray()).next()).reason(), end);
        }
        String fits = "r".repeat(ControlFrames.MAX_REASON - 2) + "é";
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ControlFrames.writeFailed(out, 0, 1, fits + "tail");
        assertEquals(fits, ((ControlFrame.Failed) agentFrames(out.toByteArray()).next()).reason());
    }

    @Test
    void theLimitsAreTheDocumentedNumbers() {
        assertEquals(2214760, JobDescription.MAX_LINE_HEX_DIGITS);
        assertEquals(4096, Limits.MAX_SIZE);
        assertEquals(1 + 12 + 2 + 2 + 1024 * 1024 + 4 + 2214760 + 1, ControlFrames.MAX_LAUNCHER_FRAME);
        assertEquals(3263358, ControlFrames.MAX_LAUNCHER_FRAME);
        assertEquals(65550, ControlFrames.MAX_AGENT_FRAME);
    }

    @Test
    void aFrameOfExactlyTheLimitIsRead() throws IOException {
        int free = ControlFrames.MAX_LAUNCHER_FRAME - 1 - ControlFrames.REF_END - 2 - 4 - 2 - 4;
        byte[] word = new byte[free - 1];
        Arrays.fill(word, (byte) 'w');
        byte[] body = ref(0, 1).u16(1).u32(word.length).bytes(word).u16(0).u32(1).u8('\n').toBytes();
        byte[] frame = frame(ControlFrames.START, body);
        assertEquals(ControlFrames.LENGTH_FIELD + ControlFrames.MAX_LAUNCHER_FRAME, frame.length);
        ControlFrame.Start start = (ControlFrame.Start) launcherFrames(frame).next();
        assertEquals(word.length, start.argv().get(0).length());
    }

    @Test
    void theEndOfTheStreamBetweenFramesIsNull() throws IOException {
        assertNull(launcherFrames(new byte[0]).next());
        assertNull(agentFrames(new byte[0]).next());
        ControlFrameReader reader = launcherFrames(frame(ControlFrames.SHUTDOWN, new byte[0]));
        assertEquals(new ControlFrame.Shutdown(), reader.next());
        assertNull(reader.next());
        assertNull(reader.next(), "and again");
    }
}
