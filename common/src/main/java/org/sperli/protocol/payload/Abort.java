package org.sperli.protocol.payload;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.sperli.ErrorCode;
import org.sperli.protocol.Encodable;
import org.sperli.protocol.Limits;
import org.sperli.protocol.PositionCoded;
import org.sperli.protocol.Wire;

/**
 * The ABORT payload (tables section 2): why a rank ends the job, for the other ranks and for people.
 *
 * <pre>
 * off size field
 *   0    4 reason           1..8 in v1 ({@link Reason}); an unknown value is accepted
 *   4    4 code             the H number without the H, or 0; an unknown value is accepted
 *   8    2 message length M at most 1024; must equal payload length - 10
 *  10    M message          UTF-8, decoded leniently
 * </pre>
 *
 * <p>A wrong message length or a cut payload is H1610; nothing else is refused, because an ABORT ends the job
 * anyway and the receiver should learn as much as it can from it. Malformed UTF-8 is replaced, never an exception.
 *
 * <p>A decoded message with malformed sequences can grow when encoded again (each replacement is 3 bytes), so the
 * 1024-byte rule is checked when encoding, not when constructing; {@link #of} truncates to fit.
 */
public record Abort(long reason, long code, String message) implements Encodable {
    public static final int REASON_OFFSET = 0;
    public static final int CODE_OFFSET = REASON_OFFSET + 4;
    public static final int MESSAGE_LENGTH_OFFSET = CODE_OFFSET + 4;
    public static final int MESSAGE_OFFSET = MESSAGE_LENGTH_OFFSET + 2;
    /** Bytes before the message: 10. */
    public static final int FIXED_LENGTH = MESSAGE_OFFSET;
    /** Largest payload: 10 + 1024. */
    public static final int MAX_LENGTH = FIXED_LENGTH + Limits.MAX_ABORT_MESSAGE;
    /** The code field of the reasons that carry no H code: the program failed (7), the operator's stop (8). */
    public static final int NO_CODE = 0;

    /**
     * The reasons of v1 (tables section 2). The wire value is the position, from 1 ({@link PositionCoded}):
     * PEER_LOST = 1, REFUSED = 2, COLLECTIVE_MISMATCH = 3, ROOT_DATA_REFUSED = 4, CHECKPOINT_FAILED = 5,
     * RESUME_FAILED = 6, PROGRAM_FAILED = 7, OPERATOR_STOP = 8.
     */
    public enum Reason implements PositionCoded {
        /** Silence, or a close without BYE; code 1613. */
        PEER_LOST,
        /** A frame or peer refused; the refusal's code. */
        REFUSED,
        /** A collective frame does not answer the call; 1617 (1618 for reduce lengths). */
        COLLECTIVE_MISMATCH,
        /** Data only the root holds was refused: bcast data missing or over the limit, scatter blocks; 1618. */
        ROOT_DATA_REFUSED,
        /** A checkpoint failed; the failure's code. */
        CHECKPOINT_FAILED,
        /** A resume failed; the failure's code. */
        RESUME_FAILED,
        /** The program failed; code 0. */
        PROGRAM_FAILED,
        /** Stopped by the operator; code 0. */
        OPERATOR_STOP;

        private static final Reason[] VALUES = values();

        /** Whether an ABORT of this reason names an H code; reasons 7 and 8 send {@link #NO_CODE}. */
        public boolean carriesCode() {
            return this != PROGRAM_FAILED && this != OPERATOR_STOP;
        }

        /** The reason with this wire value, or {@code null} when v1 does not know it. */
        public static Reason ofCode(long code) {
            return PositionCoded.ofCode(VALUES, code);
        }
    }

    public Abort {
        Objects.requireNonNull(message, "message");
    }

    /**
     * The ABORT a rank sends: {@code codeOrNull} null sends {@link #NO_CODE} (reasons 7 and 8), and the message is cut
     * to at most
     * 1024 UTF-8 bytes on a character boundary ({@code null} is empty). A reason outside 1..8 is a sender bug.
     */
    public static Abort of(int reason, ErrorCode codeOrNull, String message) {
        if (Reason.ofCode(reason) == null) {
            throw new IllegalArgumentException("reason=" + reason + ", expected 1..8");
        }
        return new Abort(reason, codeOrNull == null ? NO_CODE : codeOrNull.number(), truncate(message));
    }

    /** As {@link #of(int, ErrorCode, String)}. */
    public static Abort of(Reason reason, ErrorCode codeOrNull, String message) {
        return of(reason.code(), codeOrNull, message);
    }

    /** Decodes the whole payload; only the message length and a cut payload are refused (H1610). */
    public static Abort read(ByteBuffer payload) {
        ByteBuffer b = Wire.viewAtLeast(payload, FIXED_LENGTH, "ABORT");
        int length = b.limit();
        int messageLength = Wire.u16(b, MESSAGE_LENGTH_OFFSET);
        if (messageLength > Limits.MAX_ABORT_MESSAGE) {
            throw Wire.refuse(ErrorCode.H1610,
                    "message length=" + messageLength + ", maximum " + Limits.MAX_ABORT_MESSAGE);
        }
        if (messageLength != length - FIXED_LENGTH) {
            throw Wire.refuse(ErrorCode.H1610, "message length=" + messageLength
                    + ", expected payload length - 10 = " + (length - FIXED_LENGTH));
        }
        // Charset.decode replaces malformed input; a peer's broken text must not hide the reason it sent.
        String message = StandardCharsets.UTF_8.decode(b.slice(MESSAGE_OFFSET, messageLength)).toString();
        return new Abort(Wire.u32(b, REASON_OFFSET), Wire.u32(b, CODE_OFFSET), message);
    }

    /** The reason, or {@code null} when it is not a v1 reason. */
    public Reason knownReason() {
        return Reason.ofCode(reason);
    }

    /** The H code, or {@code null} for 0 and numbers that are not v1 codes. */
    public ErrorCode errorCode() {
        return code > Integer.MAX_VALUE ? null : ErrorCode.ofNumber((int) code);
    }

    @Override
    public int encodedLength() {
        return FIXED_LENGTH + encodedMessage().length;
    }

    @Override
    public void write(ByteBuffer out) {
        byte[] m = encodedMessage();
        ByteBuffer b = Wire.claim(out, FIXED_LENGTH + m.length);
        b.putInt(REASON_OFFSET, (int) reason);
        b.putInt(CODE_OFFSET, (int) code);
        b.putShort(MESSAGE_LENGTH_OFFSET, (short) m.length);
        b.put(MESSAGE_OFFSET, m);
    }

    /** The message's UTF-8 bytes after the encoder's checks; unpaired surrogates become '?'. */
    private byte[] encodedMessage() {
        Wire.requireEncodable(Wire.first(Wire.u32Fault("reason", reason), Wire.u32Fault("code", code)));
        // A char is at least one byte, so a longer string cannot fit and is refused before it is encoded whole.
        if (message.length() > Limits.MAX_ABORT_MESSAGE) {
            Wire.requireEncodable("message length=" + message.length() + " chars, maximum "
                    + Limits.MAX_ABORT_MESSAGE + " bytes");
        }
        byte[] m = message.getBytes(StandardCharsets.UTF_8);
        if (m.length > Limits.MAX_ABORT_MESSAGE) {
            Wire.requireEncodable("message length=" + m.length + ", maximum " + Limits.MAX_ABORT_MESSAGE);
        }
        return m;
    }

    /** The longest prefix of {@code message} whose UTF-8 form has at most 1024 bytes, cut between code points. */
    static String truncate(String message) {
        if (message == null) {
            return "";
        }
        String s = message;
        if (s.length() > Limits.MAX_ABORT_MESSAGE) {
            // More chars than bytes allowed cannot fit; cutting first keeps a huge message from being encoded whole.
            int end = Limits.MAX_ABORT_MESSAGE;
            if (Character.isHighSurrogate(s.charAt(end - 1))) {
                end--;
            }
            s = s.substring(0, end);
        }
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        if (bytes.length <= Limits.MAX_ABORT_MESSAGE) {
            return new String(bytes, StandardCharsets.UTF_8);
        }
        int end = Limits.MAX_ABORT_MESSAGE;
        while ((bytes[end] & 0xc0) == 0x80) {
            end--;
        }
        return new String(bytes, 0, end, StandardCharsets.UTF_8);
    }
}
