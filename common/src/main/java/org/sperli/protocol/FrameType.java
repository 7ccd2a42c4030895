package org.sperli.protocol;

/** Frame types of v1 (tables section 2). Code 0 and codes above 11 are refused. */
public enum FrameType {
    HELLO(1),
    DATA(2),
    COLLECTIVE(3),
    HEARTBEAT(4),
    ABORT(5),
    CKPT_BEGIN(6),
    CKPT_DATA(7),
    CKPT_ACK(8),
    CKPT_COMMIT(9),
    RESUME(10),
    BYE(11);

    private static final FrameType[] VALUES = values();

    private final int code;

    FrameType(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** Whether the header's epoch field carries a checkpoint epoch (it must be 0 for every other type). */
    public boolean carriesEpoch() {
        return code >= CKPT_BEGIN.code && code <= RESUME.code;
    }

    /** The type with this code, or {@code null} for 0 and codes above 11. */
    public static FrameType ofCode(int code) {
        return code >= 1 && code <= VALUES.length ? VALUES[code - 1] : null;
    }
}
