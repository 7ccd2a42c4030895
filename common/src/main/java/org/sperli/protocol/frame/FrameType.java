package org.sperli.protocol.frame;

import org.sperli.protocol.CommitLayout;
import org.sperli.protocol.Limits;
import org.sperli.protocol.PositionCoded;
import org.sperli.protocol.payload.Abort;
import org.sperli.protocol.payload.CkptAck;
import org.sperli.protocol.payload.CkptBegin;
import org.sperli.protocol.payload.CkptData;
import org.sperli.protocol.payload.CollectiveHeader;
import org.sperli.protocol.payload.Heartbeat;
import org.sperli.protocol.payload.Hello;
import org.sperli.protocol.payload.Resume;

/**
 * Frame types of v1 (tables section 2). Code 0 and codes above 11 are refused.
 *
 * <p>The wire code is the position, from 1 ({@link PositionCoded}): HELLO = 1, DATA = 2, COLLECTIVE = 3,
 * HEARTBEAT = 4, ABORT = 5, CKPT_BEGIN = 6, CKPT_DATA = 7, CKPT_ACK = 8, CKPT_COMMIT = 9, RESUME = 10, BYE = 11.
 */
public enum FrameType implements PositionCoded {
    HELLO,
    DATA,
    COLLECTIVE,
    HEARTBEAT,
    ABORT,
    CKPT_BEGIN,
    CKPT_DATA,
    CKPT_ACK,
    CKPT_COMMIT,
    RESUME,
    BYE;

    private static final FrameType[] VALUES = values();

    /** Whether the header's epoch field carries a checkpoint epoch (it must be 0 for every other type). */
    public boolean carriesEpoch() {
        return compareTo(CKPT_BEGIN) >= 0 && compareTo(RESUME) <= 0;
    }

    /**
     * The payload lengths this type allows in a job of {@code jobSize} ranks (tables section 2), from the payload
     * layouts' constants. Only CKPT_COMMIT and RESUME depend on the size: they carry a COMMIT file of
     * {@code 2522 + 32 x size} bytes.
     */
    public LengthRule lengthRule(int jobSize) {
        return switch (this) {
            case HELLO -> LengthRule.between(Hello.FIXED_LENGTH, Hello.FIXED_LENGTH + Limits.MAX_TOKEN);
            case DATA -> LengthRule.between(0, Limits.MAX_PAYLOAD);
            case COLLECTIVE -> LengthRule.between(CollectiveHeader.LENGTH, Limits.MAX_PAYLOAD);
            case HEARTBEAT -> LengthRule.exactly(Heartbeat.LENGTH);
            case ABORT -> LengthRule.between(Abort.FIXED_LENGTH, Abort.MAX_LENGTH);
            case CKPT_BEGIN -> LengthRule.exactly(CkptBegin.LENGTH);
            case CKPT_DATA -> LengthRule.between(CkptData.FIXED_LENGTH, CkptData.MAX_LENGTH);
            case CKPT_ACK -> LengthRule.exactly(CkptAck.LENGTH);
            case CKPT_COMMIT -> LengthRule.exactly(commitLength(jobSize));
            case RESUME -> LengthRule.either(Resume.FIXED_LENGTH, Resume.FIXED_LENGTH + commitLength(jobSize));
            case BYE -> LengthRule.exactly(0);
        };
    }

    /** Like {@link CommitLayout#lengthFor}, also for a size outside 1..4096 (a receiver's context never is). */
    private static long commitLength(int jobSize) {
        return CommitLayout.FIXED_LENGTH + (long) CommitLayout.HASH_LENGTH * jobSize;
    }

    /** The type with this code, or {@code null} for 0 and codes above 11. */
    public static FrameType ofCode(int code) {
        return PositionCoded.ofCode(VALUES, code);
    }
}
