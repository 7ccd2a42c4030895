package org.sperli.protocol.frame;

import org.sperli.checkpoint.CommitFile;
import org.sperli.checkpoint.RankFiles;
import org.sperli.protocol.Limits;
import org.sperli.protocol.payload.Abort;
import org.sperli.protocol.payload.CkptAck;
import org.sperli.protocol.payload.CkptBegin;
import org.sperli.protocol.payload.CkptData;
import org.sperli.protocol.payload.CollectiveHeader;
import org.sperli.protocol.payload.Heartbeat;
import org.sperli.protocol.payload.Hello;
import org.sperli.protocol.payload.Resume;

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

    /** Like {@link CommitFile#lengthFor}, also for a size outside 1..4096 (a receiver's context never is). */
    private static long commitLength(int jobSize) {
        return CommitFile.FIXED_LENGTH + (long) RankFiles.SHA256_LENGTH * jobSize;
    }

    /** The type with this code, or {@code null} for 0 and codes above 11. */
    public static FrameType ofCode(int code) {
        return code >= 1 && code <= VALUES.length ? VALUES[code - 1] : null;
    }
}
