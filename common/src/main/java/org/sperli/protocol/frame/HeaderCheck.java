package org.sperli.protocol.frame;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.sperli.ErrorCode;
import org.sperli.protocol.JobId;
import org.sperli.protocol.Limits;

/**
 * The receiver's header check (tables section 1), a pure function of the 52 header bytes and the receiver's context.
 *
 * <p>Checks run in the order of the table: length, type, flags, service, membership epoch, job id, source rank,
 * target rank, incarnation (lower: drop; higher: refuse), epoch, whether the length fits the type (tables section 2),
 * and last the tag: the original text puts the tag checks after everything else, which the tables' row order does
 * not contradict for any verdict (every one of these refusals is H1610), only for which fault the reason names. Every
 * refusal is H1610. Nothing here allocates from the length: the verdict comes before any
 * payload byte is read, which is what lets a streaming transport discard or refuse without buffering.
 */
public final class HeaderCheck {
    private HeaderCheck() {
    }

    /** Judges the 52 bytes at the absolute {@code offset} of {@code buffer}. */
    public static HeaderVerdict check(ByteBuffer buffer, int offset, ReceiverContext ctx) {
        ByteBuffer b = buffer.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        long length = Integer.toUnsignedLong(b.getInt(offset + FrameHeader.LENGTH_OFFSET));
        if (length > Limits.MAX_PAYLOAD) {
            return refuse("length=" + length + ", maximum " + Limits.MAX_PAYLOAD);
        }
        int typeCode = Byte.toUnsignedInt(b.get(offset + FrameHeader.TYPE_OFFSET));
        FrameType type = FrameType.ofCode(typeCode);
        if (type == null) {
            return refuse("type=" + typeCode + ", allowed 1..11");
        }
        int flags = Byte.toUnsignedInt(b.get(offset + FrameHeader.FLAGS_OFFSET));
        if (flags != 0) {
            return refuse("flags=" + flags + ", must be 0 in v1");
        }
        int service = Short.toUnsignedInt(b.getShort(offset + FrameHeader.SERVICE_OFFSET));
        if (service != 0) {
            return refuse("service=" + service + ", must be 0 in v1");
        }
        long membershipEpoch = b.getLong(offset + FrameHeader.MEMBERSHIP_EPOCH_OFFSET);
        if (membershipEpoch != 0) {
            return refuse("membership epoch=" + Long.toUnsignedString(membershipEpoch) + ", must be 0 in v1");
        }
        if (!ctx.jobId().matches(b, offset + FrameHeader.JOB_ID_OFFSET)) {
            return refuse("job id=" + JobId.read(b, offset + FrameHeader.JOB_ID_OFFSET).hex()
                    + ", expected " + ctx.jobId().hex());
        }
        long source = Integer.toUnsignedLong(b.getInt(offset + FrameHeader.SOURCE_RANK_OFFSET));
        if (source != ctx.peerRank()) {
            return refuse("source rank=" + source + ", authenticated peer is " + ctx.peerRank());
        }
        long target = Integer.toUnsignedLong(b.getInt(offset + FrameHeader.TARGET_RANK_OFFSET));
        if (target != ctx.ownRank()) {
            return refuse("target rank=" + target + ", own rank is " + ctx.ownRank());
        }
        long incarnation = Integer.toUnsignedLong(b.getInt(offset + FrameHeader.INCARNATION_OFFSET));
        if (incarnation < ctx.incarnation()) {
            return new HeaderVerdict.Drop(FrameHeader.read(b, offset), length);
        }
        if (incarnation > ctx.incarnation()) {
            return refuse("incarnation=" + incarnation + ", own incarnation is " + ctx.incarnation());
        }
        String fault = epochFault(type, Integer.toUnsignedLong(b.getInt(offset + FrameHeader.EPOCH_OFFSET)));
        if (fault == null) {
            fault = lengthFault(type, length, ctx.jobSize());
        }
        if (fault == null) {
            // The original text: the tag checks come last, after the incarnation.
            fault = tagFault(type, Integer.toUnsignedLong(b.getInt(offset + FrameHeader.TAG_OFFSET)));
        }
        return fault == null ? new HeaderVerdict.Accept(FrameHeader.read(b, offset)) : refuse(fault);
    }

    /**
     * The first fault every receiver would find whatever its context (used by the encoder), or {@code null}. The
     * size-dependent lengths of CKPT_COMMIT and RESUME are checked only against the largest job.
     */
    static String contextFreeFault(FrameHeader h) {
        if (h.length() < 0 || h.length() > Limits.MAX_PAYLOAD) {
            return "length=" + h.length() + ", maximum " + Limits.MAX_PAYLOAD;
        }
        FrameType type = h.frameType();
        if (type == null) {
            return "type=" + h.type() + ", allowed 1..11";
        }
        if (h.flags() != 0 || h.service() != 0 || h.membershipEpoch() != 0) {
            return "flags, service and membership epoch must be 0 in v1";
        }
        String fault = tagFault(type, h.tag());
        if (fault == null) {
            fault = epochFault(type, h.epoch());
        }
        if (fault == null && type != FrameType.CKPT_COMMIT && type != FrameType.RESUME) {
            fault = lengthFault(type, h.length(), Limits.MAX_SIZE);
        }
        return fault;
    }

    private static String tagFault(FrameType type, long tag) {
        if (type == FrameType.DATA) {
            return tag > Limits.MAX_USER_TAG ? "tag=" + tag + " is reserved, DATA allows 0..2147483647" : null;
        }
        return tag != 0 ? "tag=" + tag + ", must be 0 for " + type : null;
    }

    private static String epochFault(FrameType type, long epoch) {
        return !type.carriesEpoch() && epoch != 0 ? "epoch=" + epoch + ", must be 0 for " + type : null;
    }

    /** Whether {@code length} fits the payload rule of the type (tables section 2); the fault, or null. */
    static String lengthFault(FrameType type, long length, int jobSize) {
        LengthRule rule = type.lengthRule(jobSize);
        return rule.allows(length) ? null : "length=" + length + " does not fit " + type + " (" + rule + ")";
    }

    private static HeaderVerdict refuse(String reason) {
        return new HeaderVerdict.Refuse(ErrorCode.H1610, reason);
    }
}
