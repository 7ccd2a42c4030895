package org.sperli.control;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.sperli.jobspec.DescriptionLine;
import org.sperli.jobspec.JobDescription;

/**
 * The control stream's layouts, all integers little-endian as in the SPERLI protocol. Every frame is
 *
 * <pre>
 *   offset  size  field
 *   0       4     length   u32: bytes after this field (type and body), 1..maxLength of the direction
 *   4       1     type     u8
 *   5       ...   body     the type's layout below, nothing after it
 * </pre>
 *
 * Launcher to agent:
 * <pre>
 *   0x01 START     rank u32 | incarnation u64 | argc u16 (1..{@value #MAX_WORDS}) | argc x string
 *                  | envc u16 (0..{@value #MAX_WORDS}) | envc x string | description string (ends with LF)
 *   0x02 SIGNAL    rank u32 | incarnation u64 | signal u8 (15 TERM, 9 KILL)
 *   0x03 SHUTDOWN  (empty)
 * </pre>
 * Agent to launcher:
 * <pre>
 *   0x81 READY     version u16 ({@value #VERSION}) | pid u64
 *   0x82 STARTED   rank u32 | incarnation u64 | pid u64
 *   0x83 OUTPUT    rank u32 | incarnation u64 | stream u8 (1 stdout, 2 stderr) | data (1..{@value #MAX_OUTPUT})
 *   0x84 EXITED    rank u32 | incarnation u64 | status u8
 *   0x85 FAILED    rank u32 | incarnation u64 | reason (UTF-8, 0..{@value #MAX_REASON})
 *   0x86 BYE       (empty)
 * </pre>
 * A string is u32 length then that many bytes of UTF-8. Each field that gives a length is checked against what is
 * left of the frame before the bytes are taken.
 */
public final class ControlFrames {
    /** The control stream version an agent announces in READY. */
    public static final int VERSION = 1;

    public static final int START = 0x01;
    public static final int SIGNAL = 0x02;
    public static final int SHUTDOWN = 0x03;
    public static final int READY = 0x81;
    public static final int STARTED = 0x82;
    public static final int OUTPUT = 0x83;
    public static final int EXITED = 0x84;
    public static final int FAILED = 0x85;
    public static final int BYE = 0x86;

    public static final int SIGTERM = 15;
    public static final int SIGKILL = 9;
    public static final int STDOUT = 1;
    public static final int STDERR = 2;

    /** Bytes of the length field. */
    public static final int LENGTH_FIELD = 4;
    /** Offsets in the body of every frame about one rank. */
    public static final int RANK_OFFSET = 0;
    public static final int INCARNATION_OFFSET = 4;
    /** Where the fields after a rank reference start. */
    public static final int REF_END = 12;
    /** START: where argc is. */
    public static final int START_ARGC_OFFSET = REF_END;
    /** SIGNAL: the signal. */
    public static final int SIGNAL_OFFSET = REF_END;
    /** READY: version and pid. */
    public static final int READY_VERSION_OFFSET = 0;
    public static final int READY_PID_OFFSET = 2;
    /** STARTED: the pid. */
    public static final int STARTED_PID_OFFSET = REF_END;
    /** OUTPUT: the stream and where the data starts. */
    public static final int OUTPUT_STREAM_OFFSET = REF_END;
    public static final int OUTPUT_DATA_OFFSET = REF_END + 1;
    /** EXITED: the status. */
    public static final int EXITED_STATUS_OFFSET = REF_END;

    /** Most words of a rank's command line, and most environment changes. */
    public static final int MAX_WORDS = 4096;
    /** Most bytes of one OUTPUT frame's data. */
    public static final int MAX_OUTPUT = 64 * 1024;
    /** Most bytes of a FAILED reason. */
    public static final int MAX_REASON = 1024;
    /** Most bytes of a START's command line and environment together (besides the description). */
    public static final int MAX_COMMAND_BYTES = 1024 * 1024;
    /** Largest frame a launcher sends (type and body): a START with the longest description and command. */
    public static final int MAX_LAUNCHER_FRAME = 1 + REF_END + 2 + 2 + MAX_COMMAND_BYTES + 4
            + JobDescription.MAX_LINE_HEX_DIGITS + 1;
    /** Largest frame an agent sends (type and body): an OUTPUT with the most data. */
    public static final int MAX_AGENT_FRAME = 1 + OUTPUT_DATA_OFFSET + MAX_OUTPUT;

    private ControlFrames() {
    }

    /** The limit on frames that {@code fromLauncher} (true: a launcher, false: an agent) sends. */
    public static int maxLength(boolean fromLauncher) {
        return fromLauncher ? MAX_LAUNCHER_FRAME : MAX_AGENT_FRAME;
    }

    /**
     * Writes a START frame to {@code out}. The description goes from {@code line} straight to {@code out}, so no
     * copy of it is made here; the caller wipes {@code line} and flushes.
     */
    public static void writeStart(OutputStream out, int rank, long incarnation, List<String> argv, List<String> env,
                                  DescriptionLine line) throws IOException {
        if (argv.isEmpty() || argv.size() > MAX_WORDS || env.size() > MAX_WORDS) {
            throw new IllegalArgumentException("a START needs 1.." + MAX_WORDS + " words and at most " + MAX_WORDS
                    + " environment changes");
        }
        List<byte[]> words = new ArrayList<>();
        int commandBytes = 0;
        for (List<String> list : List.of(argv, env)) {
            for (String s : list) {
                byte[] b = s.getBytes(StandardCharsets.UTF_8);
                words.add(b);
                commandBytes += 4 + b.length;
            }
        }
        if (commandBytes > MAX_COMMAND_BYTES) {
            throw new IllegalArgumentException("a START's command and environment exceed " + MAX_COMMAND_BYTES
                    + " bytes");
        }
        int lineLength = line.length();
        ByteBuffer head = buffer(LENGTH_FIELD + 1 + REF_END + 2 + 2 + commandBytes + 4);
        head.putInt(1 + REF_END + 2 + commandBytes + 2 + 4 + lineLength).put((byte) START);
        head.putInt(rank).putLong(incarnation);
        head.putShort((short) argv.size());
        for (int i = 0; i < words.size(); i++) {
            if (i == argv.size()) {
                head.putShort((short) env.size());
            }
            head.putInt(words.get(i).length).put(words.get(i));
        }
        if (env.isEmpty()) {
            head.putShort((short) 0);
        }
        head.putInt(lineLength);
        out.write(head.array(), 0, head.position());
        line.writeTo(out);
    }

    public static void writeSignal(OutputStream out, int rank, long incarnation, int signal) throws IOException {
        write(out, buffer(LENGTH_FIELD + 1 + REF_END + 1).putInt(1 + REF_END + 1).put((byte) SIGNAL).putInt(rank)
                .putLong(incarnation).put((byte) signal));
    }

    public static void writeShutdown(OutputStream out) throws IOException {
        write(out, buffer(LENGTH_FIELD + 1).putInt(1).put((byte) SHUTDOWN));
    }

    public static void writeReady(OutputStream out, long pid) throws IOException {
        write(out, buffer(LENGTH_FIELD + 1 + 10).putInt(11).put((byte) READY).putShort((short) VERSION).putLong(pid));
    }

    public static void writeStarted(OutputStream out, int rank, long incarnation, long pid) throws IOException {
        write(out, buffer(LENGTH_FIELD + 1 + REF_END + 8).putInt(1 + REF_END + 8).put((byte) STARTED).putInt(rank)
                .putLong(incarnation).putLong(pid));
    }

    /** An OUTPUT frame with {@code data[off, off + len)}, {@code len} in 1..{@link #MAX_OUTPUT}. */
    public static void writeOutput(OutputStream out, int rank, long incarnation, int stream, byte[] data, int off,
                                   int len) throws IOException {
        if (len < 1 || len > MAX_OUTPUT) {
            throw new IllegalArgumentException("OUTPUT data of " + len + " bytes");
        }
        write(out, buffer(LENGTH_FIELD + 1 + OUTPUT_DATA_OFFSET).putInt(1 + OUTPUT_DATA_OFFSET + len)
                .put((byte) OUTPUT).putInt(rank).putLong(incarnation).put((byte) stream));
        out.write(data, off, len);
    }

    public static void writeExited(OutputStream out, int rank, long incarnation, int status) throws IOException {
        write(out, buffer(LENGTH_FIELD + 1 + REF_END + 1).putInt(1 + REF_END + 1).put((byte) EXITED).putInt(rank)
                .putLong(incarnation).put((byte) status));
    }

    /**
     * A FAILED frame; a reason longer than {@link #MAX_REASON} bytes is cut at the last whole character that fits,
     * so that what is sent is still UTF-8 (a reader refuses a reason that is not).
     */
    public static void writeFailed(OutputStream out, int rank, long incarnation, String reason) throws IOException {
        byte[] r = reason.getBytes(StandardCharsets.UTF_8);
        int len = Math.min(r.length, MAX_REASON);
        while (len < r.length && (r[len] & 0xc0) == 0x80) {
            len--;
        }
        write(out, buffer(LENGTH_FIELD + 1 + REF_END + len).putInt(1 + REF_END + len).put((byte) FAILED).putInt(rank)
                .putLong(incarnation).put(r, 0, len));
    }

    public static void writeBye(OutputStream out) throws IOException {
        write(out, buffer(LENGTH_FIELD + 1).putInt(1).put((byte) BYE));
    }

    private static ByteBuffer buffer(int size) {
        return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static void write(OutputStream out, ByteBuffer frame) throws IOException {
        out.write(frame.array(), 0, frame.position());
    }
}
