package org.sperli.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.sperli.control.ControlStreams.agentFrames;
import static org.sperli.control.ControlStreams.frame;
import static org.sperli.control.ControlStreams.launcherFrames;
import static org.sperli.control.ControlStreams.ref;
import static org.sperli.control.ControlStreams.string;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.sperli.protocol.LeBytes;

/** One test per rule of {@link ControlFrameReader}: each refusal with its exact message. */
class ControlFrameRefusalTest {
    private static final byte[] LF = {'\n'};
    private static final byte[] NOT_UTF8 = {'a', (byte) 0xc3};

    private static void refused(String message, ControlFrameReader reader) {
        ControlStreamException e = assertThrows(ControlStreamException.class, reader::next);
        assertEquals(message, e.getMessage());
    }

    /** Refused by the agent's reader, which reads what a launcher sends. */
    private static void refusedByAgent(String message, byte[] stream) {
        refused(message, launcherFrames(stream));
    }

    /** Refused by the launcher's reader, which reads what an agent sends. */
    private static void refusedByLauncher(String message, byte[] stream) {
        refused(message, agentFrames(stream));
    }

    /** A START body up to its description: rank 1, incarnation 1, one word, no environment change. */
    private static LeBytes startHead() {
        return string(ref(1, 1).u16(1), "rank").u16(0);
    }

    @Test
    void aCutLengthFieldIsRefused() {
        refusedByAgent("cut frame: the stream ended after 1 of the 4 bytes of a length", new byte[] {1});
        refusedByLauncher("cut frame: the stream ended after 3 of the 4 bytes of a length", new byte[] {14, 0, 0});
    }

    @Test
    void aFrameCutBeforeItsTypeIsRefused() {
        refusedByAgent("cut frame: the stream ended before the type of a frame of 14 bytes",
                LeBytes.le().u32(14).toBytes());
    }

    @Test
    void aCutBodyIsRefused() {
        byte[] signal = frame(ControlFrames.SIGNAL, ref(3, 2).u8(15).toBytes());
        refusedByAgent("cut frame: the stream ended after 5 of 13 body bytes of a frame of type 0x2",
                Arrays.copyOf(signal, 4 + 1 + 5));
        byte[] start = frame(ControlFrames.START, startHead().u32(1).u8('\n').toBytes());
        refusedByAgent("cut frame: the stream ended after 0 of 29 body bytes of a frame of type 0x1",
                Arrays.copyOf(start, 5));
    }

    @Test
    void aLengthOfZeroIsRefused() {
        refusedByAgent("frame length 0 is not in 1..3263358", LeBytes.le().u32(0).u8(3).toBytes());
        refusedByLauncher("frame length 0 is not in 1..65550", LeBytes.le().u32(0).u8(0x86).toBytes());
    }

    @Test
    void aLengthOverTheLimitOfItsDirectionIsRefused() {
        refusedByAgent("frame length 3263359 is not in 1..3263358",
                LeBytes.le().u32(ControlFrames.MAX_LAUNCHER_FRAME + 1).u8(1).toBytes());
        refusedByLauncher("frame length 65551 is not in 1..65550",
                LeBytes.le().u32(ControlFrames.MAX_AGENT_FRAME + 1).u8(0x83).toBytes());
    }

    @Test
    void aLengthOverTheLimitIsRefusedBeforeAnythingMoreIsRead() {
        for (boolean fromLauncher : new boolean[] {true, false}) {
            InputStream nothingMore = new InputStream() {
                @Override
                public int read() {
                    throw new AssertionError("read past the length field");
                }
            };
            InputStream in = new SequenceInputStream(new ByteArrayInputStream(LeBytes.le().u32(0xffffffffL)
                    .toBytes()), nothingMore);
            refused("frame length 4294967295 is not in 1.." + ControlFrames.maxLength(fromLauncher),
                    new ControlFrameReader(in, fromLauncher));
        }
    }

    @Test
    void anUnknownTypeIsRefused() {
        refusedByAgent("unknown frame type 0x4", frame(0x04, new byte[0]));
        refusedByAgent("unknown frame type 0x0", frame(0x00, new byte[0]));
        refusedByLauncher("unknown frame type 0x87", frame(0x87, new byte[0]));
        refusedByLauncher("unknown frame type 0x80", frame(0x80, new byte[0]));
    }

    @Test
    void aTypeTheOtherSideSendsIsRefused() {
        refusedByAgent("frame type 0x81 is sent by an agent, not by a launcher",
                frame(ControlFrames.READY, LeBytes.le().u16(1).u64(4711).toBytes()));
        refusedByAgent("frame type 0x86 is sent by an agent, not by a launcher",
                frame(ControlFrames.BYE, new byte[0]));
        refusedByLauncher("frame type 0x1 is sent by a launcher, not by an agent",
                frame(ControlFrames.START, startHead().u32(1).u8('\n').toBytes()));
        refusedByLauncher("frame type 0x3 is sent by a launcher, not by an agent",
                frame(ControlFrames.SHUTDOWN, new byte[0]));
    }

    @Test
    void aTypeTheOtherSideSendsIsRefusedWhateverItsBody() {
        refusedByAgent("frame type 0x84 is sent by an agent, not by a launcher",
                frame(ControlFrames.EXITED, new byte[] {1}));
        refusedByLauncher("frame type 0x2 is sent by a launcher, not by an agent",
                frame(ControlFrames.SIGNAL, new byte[0]));
    }

    @Test
    void bytesAfterTheLayoutAreRefused() {
        refusedByAgent("1 bytes after the end of a frame of type 0x2",
                frame(ControlFrames.SIGNAL, ref(3, 2).u8(15).u8(0).toBytes()));
        refusedByAgent("2 bytes after the end of a frame of type 0x3",
                frame(ControlFrames.SHUTDOWN, new byte[2]));
        refusedByAgent("1 bytes after the end of a frame of type 0x1",
                frame(ControlFrames.START, startHead().u32(1).u8('\n').u8(0).toBytes()));
        refusedByLauncher("8 bytes after the end of a frame of type 0x84",
                frame(ControlFrames.EXITED, ref(0, 1).u8(0).u64(0).toBytes()));
        refusedByLauncher("1 bytes after the end of a frame of type 0x86", frame(ControlFrames.BYE, new byte[1]));
    }

    @Test
    void aBodyShorterThanItsLayoutIsRefused() {
        refusedByAgent("frame cut inside its rank and incarnation (11 of 12 bytes left)",
                frame(ControlFrames.SIGNAL, new byte[11]));
        refusedByAgent("frame cut inside its signal (0 of 1 bytes left)",
                frame(ControlFrames.SIGNAL, ref(3, 2).toBytes()));
        refusedByLauncher("frame cut inside its version (1 of 2 bytes left)",
                frame(ControlFrames.READY, new byte[1]));
        refusedByLauncher("frame cut inside its pid (7 of 8 bytes left)",
                frame(ControlFrames.READY, LeBytes.le().u16(1).fill(7, 0).toBytes()));
        refusedByLauncher("frame cut inside its status (0 of 1 bytes left)",
                frame(ControlFrames.EXITED, ref(0, 1).toBytes()));
        refusedByAgent("frame cut inside its envc (1 of 2 bytes left)",
                frame(ControlFrames.START, string(ref(1, 1).u16(1), "rank").u8(0).toBytes()));
        refusedByAgent("frame cut inside its description length (3 of 4 bytes left)",
                frame(ControlFrames.START, startHead().u8(0).u16(0).toBytes()));
    }

    @Test
    void aRankOrIncarnationOutOfRangeIsRefused() {
        refusedByAgent("rank 2147483648 is out of range",
                frame(ControlFrames.SIGNAL, ref(0x8000_0000L, 1).u8(15).toBytes()));
        refusedByLauncher("incarnation 18446744073709551615 is out of range",
                frame(ControlFrames.EXITED, ref(0, -1L).u8(0).toBytes()));
    }

    @Test
    void aSignalOtherThanTermAndKillIsRefused() {
        for (int signal : new int[] {0, 2, 10, 14, 16, 255}) {
            refusedByAgent("SIGNAL for rank 3 (incarnation 2) asks for signal " + signal + " (only 15 and 9)",
                    frame(ControlFrames.SIGNAL, ref(3, 2).u8(signal).toBytes()));
        }
    }

    @Test
    void aStreamOtherThanStdoutAndStderrIsRefused() {
        for (int stream : new int[] {0, 3, 255}) {
            refusedByLauncher("OUTPUT for rank 0 (incarnation 1) names stream " + stream + " (only 1 and 2)",
                    frame(ControlFrames.OUTPUT, ref(0, 1).u8(stream).u8('x').toBytes()));
        }
    }

    @Test
    void anEmptyOutputIsRefused() {
        refusedByLauncher("OUTPUT for rank 0 (incarnation 1) carries no data",
                frame(ControlFrames.OUTPUT, ref(0, 1).u8(1).toBytes()));
    }

    @Test
    void aStartWithoutWordsIsRefused() {
        refusedByAgent("argc 0 is not in 1..4096",
                frame(ControlFrames.START, ref(1, 1).u16(0).u16(0).u32(1).u8('\n').toBytes()));
    }

    @Test
    void tooManyWordsOrEnvironmentChangesAreRefused() {
        refusedByAgent("argc 4097 is not in 1..4096", frame(ControlFrames.START, ref(1, 1).u16(4097).toBytes()));
        refusedByAgent("envc 4097 is not in 0..4096",
                frame(ControlFrames.START, string(ref(1, 1).u16(1), "rank").u16(4097).toBytes()));
    }

    @Test
    void aStringLengthBeyondTheFrameIsRefused() {
        refusedByAgent("argc string length 100 exceeds the 4 bytes left in its frame",
                frame(ControlFrames.START, ref(1, 1).u16(1).u32(100).bytes(new byte[] {'r', 'a', 'n', 'k'})
                        .toBytes()));
        refusedByAgent("argc string length 4294967295 exceeds the 0 bytes left in its frame",
                frame(ControlFrames.START, ref(1, 1).u16(1).u32(0xffffffffL).toBytes()));
        refusedByAgent("envc string length 5 exceeds the 4 bytes left in its frame",
                frame(ControlFrames.START, string(ref(1, 1).u16(1), "rank").u16(1).u32(5)
                        .bytes(new byte[] {'A', '=', 'b', 'c'}).toBytes()));
        refusedByAgent("description length 10 exceeds the 3 bytes left in its frame",
                frame(ControlFrames.START, startHead().u32(10).bytes(new byte[] {'a', 'b', '\n'}).toBytes()));
    }

    @Test
    void aStringThatIsNotUtf8IsRefused() {
        refusedByAgent("argc string 0 is not UTF-8",
                frame(ControlFrames.START, ref(1, 1).u16(1).u32(2).bytes(NOT_UTF8).u16(0).u32(1).bytes(LF)
                        .toBytes()));
        refusedByAgent("envc string 1 is not UTF-8",
                frame(ControlFrames.START, string(string(ref(1, 1).u16(1), "rank").u16(2), "A=b").u32(2)
                        .bytes(NOT_UTF8).u32(1).bytes(LF).toBytes()));
        refusedByLauncher("reason is not UTF-8", frame(ControlFrames.FAILED, ref(0, 1).bytes(NOT_UTF8).toBytes()));
        refusedByLauncher("reason is not UTF-8", frame(ControlFrames.FAILED, ref(0, 1)
                .bytes(new byte[] {(byte) 0xed, (byte) 0xa0, (byte) 0x80}).toBytes()));
    }

    @Test
    void aDescriptionWithoutItsLineFeedIsRefused() {
        refusedByAgent("START for rank 1 (incarnation 1): the description does not end with a line feed",
                frame(ControlFrames.START, startHead().u32(3).bytes(new byte[] {'a', 'b', 'c'}).toBytes()));
        refusedByAgent("START for rank 1 (incarnation 1): the description does not end with a line feed",
                frame(ControlFrames.START, startHead().u32(3).bytes(new byte[] {'a', '\n', 'c'}).toBytes()));
    }

    @Test
    void anEmptyDescriptionIsRefused() {
        refusedByAgent("START for rank 1 (incarnation 1) has an empty description",
                frame(ControlFrames.START, startHead().u32(0).toBytes()));
    }

    @Test
    void aFailedReasonOverItsLimitIsRefused() {
        refusedByLauncher("FAILED for rank 0 (incarnation 1) has a reason of 1025 bytes (at most 1024)",
                frame(ControlFrames.FAILED, ref(0, 1).fill(ControlFrames.MAX_REASON + 1, 'r').toBytes()));
    }

    @Test
    void aFailedReasonOfExactlyItsLimitIsRead() throws IOException {
        ControlFrame.Failed failed = (ControlFrame.Failed) agentFrames(frame(ControlFrames.FAILED,
                ref(0, 1).fill(ControlFrames.MAX_REASON, 'r').toBytes())).next();
        assertEquals(ControlFrames.MAX_REASON, failed.reason().length());
    }

    @Test
    void theFrameBeforeARefusedOneIsStillRead() throws IOException {
        byte[] good = frame(ControlFrames.SHUTDOWN, new byte[0]);
        byte[] bad = frame(0x7f, new byte[0]);
        byte[] stream = Arrays.copyOf(good, good.length + bad.length);
        System.arraycopy(bad, 0, stream, good.length, bad.length);
        ControlFrameReader reader = launcherFrames(stream);
        assertEquals(new ControlFrame.Shutdown(), reader.next());
        refused("unknown frame type 0x7f", reader);
    }
}
