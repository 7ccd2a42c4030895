package org.sperli.control;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.sperli.control.ControlFrame.RankRef;

/**
 * Reads the frames of one direction of a control stream ({@link ControlFrames} has the layouts): the length is
 * checked against that direction's limit before the body is allocated, the type must be one that direction sends
 * (checked before the body is read), and the body must be exactly its layout. The body of a START is zeroed once
 * decoded, and so is its description when the frame is refused after all (the description is a secret). Not safe for
 * several threads.
 */
public final class ControlFrameReader {
    private final InputStream in;
    private final boolean fromLauncher;
    private final int maxLength;
    private final byte[] lengthField = new byte[ControlFrames.LENGTH_FIELD];

    /** Reads frames that a launcher ({@code fromLauncher}) or an agent sends, from {@code in}. */
    public ControlFrameReader(InputStream in, boolean fromLauncher) {
        this.in = in;
        this.fromLauncher = fromLauncher;
        this.maxLength = ControlFrames.maxLength(fromLauncher);
    }

    /**
     * The next frame, or null at the end of the stream between two frames.
     *
     * @throws ControlStreamException for a cut frame, a length of 0 or over the limit, a type this direction does
     *                                not send, or a body that does not match its layout
     * @throws IOException            when reading fails
     */
    public ControlFrame next() throws IOException {
        int got = in.readNBytes(lengthField, 0, lengthField.length);
        if (got == 0) {
            return null;
        }
        if (got < lengthField.length) {
            throw new ControlStreamException("cut frame: the stream ended after " + got + " of the 4 bytes of a"
                    + " length");
        }
        long length = Integer.toUnsignedLong(ByteBuffer.wrap(lengthField).order(ByteOrder.LITTLE_ENDIAN).getInt());
        if (length < 1 || length > maxLength) {
            throw new ControlStreamException("frame length " + length + " is not in 1.." + maxLength);
        }
        int type = in.read();
        if (type < 0) {
            throw new ControlStreamException("cut frame: the stream ended before the type of a frame of " + length
                    + " bytes");
        }
        checkType(type);
        // One array of the checked length, not readNBytes(int), which gathers a long body in chunks that nobody
        // zeroes: a START's description would stay behind in them.
        byte[] body = new byte[(int) length - 1];
        try {
            int read = in.readNBytes(body, 0, body.length);
            if (read < body.length) {
                throw new ControlStreamException("cut frame: the stream ended after " + read + " of "
                        + body.length + " body bytes of a frame of type 0x" + Integer.toHexString(type));
            }
            return decode(type, ByteBuffer.wrap(body).order(ByteOrder.LITTLE_ENDIAN));
        } finally {
            if (type == ControlFrames.START) {
                Arrays.fill(body, (byte) 0);
            }
        }
    }

    /** Refuses an unknown type, and a type the other direction sends, before its body is read. */
    private void checkType(int type) throws ControlStreamException {
        boolean launcherType = switch (type) {
            case ControlFrames.START, ControlFrames.SIGNAL, ControlFrames.SHUTDOWN -> true;
            case ControlFrames.READY, ControlFrames.STARTED, ControlFrames.OUTPUT, ControlFrames.EXITED,
                    ControlFrames.FAILED, ControlFrames.BYE -> false;
            default -> throw new ControlStreamException("unknown frame type 0x" + Integer.toHexString(type));
        };
        if (launcherType != fromLauncher) {
            throw new ControlStreamException("frame type 0x" + Integer.toHexString(type) + " is sent by "
                    + (fromLauncher ? "an agent" : "a launcher") + ", not by " + (fromLauncher ? "a launcher"
                    : "an agent"));
        }
    }

    private static ControlFrame decode(int type, ByteBuffer b) throws ControlStreamException {
        ControlFrame frame = switch (type) {
            case ControlFrames.START -> start(b);
            case ControlFrames.SIGNAL -> signal(b);
            case ControlFrames.SHUTDOWN -> new ControlFrame.Shutdown();
            case ControlFrames.READY -> new ControlFrame.Ready(u16(b, "version"), u64(b, "pid"));
            case ControlFrames.STARTED -> new ControlFrame.Started(ref(b), u64(b, "pid"));
            case ControlFrames.OUTPUT -> output(b);
            case ControlFrames.EXITED -> new ControlFrame.Exited(ref(b), u8(b, "status"));
            case ControlFrames.FAILED -> failed(b);
            case ControlFrames.BYE -> new ControlFrame.Bye();
            default -> throw new ControlStreamException("unknown frame type 0x" + Integer.toHexString(type));
        };
        if (b.hasRemaining()) {
            if (frame instanceof ControlFrame.Start start) {
                start.wipe();
            }
            throw new ControlStreamException(b.remaining() + " bytes after the end of a frame of type 0x"
                    + Integer.toHexString(type));
        }
        return frame;
    }

    private static ControlFrame.Start start(ByteBuffer b) throws ControlStreamException {
        RankRef ref = ref(b);
        List<String> argv = strings(b, "argc", 1);
        List<String> env = strings(b, "envc", 0);
        int length = length(b, "description");
        if (length < 1) {
            throw new ControlStreamException("START for " + ref + " has an empty description");
        }
        byte[] description = new byte[length];
        b.get(description);
        if (description[length - 1] != '\n') {
            Arrays.fill(description, (byte) 0);
            throw new ControlStreamException("START for " + ref + ": the description does not end with a line feed");
        }
        return new ControlFrame.Start(ref, argv, env, description);
    }

    private static ControlFrame.Signal signal(ByteBuffer b) throws ControlStreamException {
        RankRef ref = ref(b);
        int signal = u8(b, "signal");
        if (signal != ControlFrames.SIGTERM && signal != ControlFrames.SIGKILL) {
            throw new ControlStreamException("SIGNAL for " + ref + " asks for signal " + signal + " (only 15 and 9)");
        }
        return new ControlFrame.Signal(ref, signal);
    }

    private static ControlFrame.Output output(ByteBuffer b) throws ControlStreamException {
        RankRef ref = ref(b);
        int stream = u8(b, "stream");
        if (stream != ControlFrames.STDOUT && stream != ControlFrames.STDERR) {
            throw new ControlStreamException("OUTPUT for " + ref + " names stream " + stream + " (only 1 and 2)");
        }
        if (!b.hasRemaining()) {
            throw new ControlStreamException("OUTPUT for " + ref + " carries no data");
        }
        byte[] data = new byte[b.remaining()];
        b.get(data);
        return new ControlFrame.Output(ref, stream, data);
    }

    private static ControlFrame.Failed failed(ByteBuffer b) throws ControlStreamException {
        RankRef ref = ref(b);
        if (b.remaining() > ControlFrames.MAX_REASON) {
            throw new ControlStreamException("FAILED for " + ref + " has a reason of " + b.remaining() + " bytes (at"
                    + " most " + ControlFrames.MAX_REASON + ")");
        }
        return new ControlFrame.Failed(ref, utf8(b, b.remaining(), "reason"));
    }

    private static RankRef ref(ByteBuffer b) throws ControlStreamException {
        need(b, ControlFrames.REF_END, "rank and incarnation");
        int rank = b.getInt();
        if (rank < 0) {
            throw new ControlStreamException("rank " + Integer.toUnsignedString(rank) + " is out of range");
        }
        long incarnation = b.getLong();
        if (incarnation < 0) {
            throw new ControlStreamException("incarnation " + Long.toUnsignedString(incarnation)
                    + " is out of range");
        }
        return new RankRef(rank, incarnation);
    }

    private static List<String> strings(ByteBuffer b, String field, int min) throws ControlStreamException {
        int count = u16(b, field);
        if (count < min || count > ControlFrames.MAX_WORDS) {
            throw new ControlStreamException(field + " " + count + " is not in " + min + ".."
                    + ControlFrames.MAX_WORDS);
        }
        List<String> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            out.add(utf8(b, length(b, field + " string"), field + " string " + i));
        }
        return out;
    }

    /** A u32 length that fits in what is left of the frame. */
    private static int length(ByteBuffer b, String field) throws ControlStreamException {
        need(b, 4, field + " length");
        long length = Integer.toUnsignedLong(b.getInt());
        if (length > b.remaining()) {
            throw new ControlStreamException(field + " length " + length + " exceeds the " + b.remaining()
                    + " bytes left in its frame");
        }
        return (int) length;
    }

    private static String utf8(ByteBuffer b, int length, String field) throws ControlStreamException {
        ByteBuffer bytes = b.slice(b.position(), length);
        b.position(b.position() + length);
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(bytes).toString();
        } catch (CharacterCodingException e) {
            throw new ControlStreamException(field + " is not UTF-8");
        }
    }

    private static int u8(ByteBuffer b, String field) throws ControlStreamException {
        need(b, 1, field);
        return Byte.toUnsignedInt(b.get());
    }

    private static int u16(ByteBuffer b, String field) throws ControlStreamException {
        need(b, 2, field);
        return Short.toUnsignedInt(b.getShort());
    }

    private static long u64(ByteBuffer b, String field) throws ControlStreamException {
        need(b, 8, field);
        return b.getLong();
    }

    private static void need(ByteBuffer b, int bytes, String field) throws ControlStreamException {
        if (b.remaining() < bytes) {
            throw new ControlStreamException("frame cut inside its " + field + " (" + b.remaining() + " of " + bytes
                    + " bytes left)");
        }
    }
}
