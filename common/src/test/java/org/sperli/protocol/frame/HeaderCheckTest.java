package org.sperli.protocol.frame;

import org.sperli.protocol.JobId;
import org.sperli.protocol.LeBytes;
import org.sperli.protocol.Limits;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.sperli.ErrorCode;

class HeaderCheckTest {
    static final JobId JOB = JobId.parseHex("00112233445566778899aabbccddeeff");
    static final JobId OTHER_JOB = JobId.parseHex("ffeeddccbbaa99887766554433221100");
    static final int SIZE = 4;
    static final int OWN = 1;
    static final int PEER = 3;
    static final long INCARNATION = 2;
    static final ReceiverContext CTX = new ReceiverContext(JOB, SIZE, OWN, PEER, INCARNATION);
    /** A COMMIT file of this job: 2522 + 32 x 4. */
    static final int COMMIT = 2522 + 32 * SIZE;

    /** A header that every check accepts unless a test changes one field. */
    static final class Hdr {
        long length = 5;
        long type = FrameType.DATA.code();
        long flags;
        long service;
        long membershipEpoch;
        JobId jobId = JOB;
        long source = PEER;
        long target = OWN;
        long incarnation = INCARNATION;
        long tag;
        long epoch;

        static Hdr of(FrameType t, long length) {
            Hdr h = new Hdr();
            h.type = t.code();
            h.length = length;
            if (t.carriesEpoch()) {
                h.epoch = 7;
            }
            return h;
        }

        byte[] bytes() {
            return LeBytes.le()
                    .u32(length)             // length
                    .u8(type)                // type
                    .u8(flags)               // flags
                    .u16(service)            // service
                    .u64(membershipEpoch)    // membership epoch
                    .bytes(jobId.toBytes())  // job id
                    .u32(source)             // source rank
                    .u32(target)             // target rank
                    .u32(incarnation)        // incarnation
                    .u32(tag)                // tag
                    .u32(epoch)              // epoch
                    .toBytes();
        }

        HeaderVerdict check() {
            // Exactly 52 bytes: the check must never need a payload byte.
            return HeaderCheck.check(ByteBuffer.wrap(bytes()), 0, CTX);
        }
    }

    static HeaderVerdict.Refuse refused(HeaderVerdict v, String field) {
        HeaderVerdict.Refuse r = assertInstanceOf(HeaderVerdict.Refuse.class, v);
        assertEquals(ErrorCode.H1610, r.code());
        assertTrue(r.reason().startsWith(field + "="), r.reason());
        return r;
    }

    static void accepted(HeaderVerdict v) {
        assertInstanceOf(HeaderVerdict.Accept.class, v, () -> v.toString());
    }

    @Test
    void acceptsValidDataHeader() {
        Hdr h = new Hdr();
        HeaderVerdict.Accept a = assertInstanceOf(HeaderVerdict.Accept.class, h.check());
        assertEquals(5, a.header().length());
        assertEquals(PEER, a.header().sourceRank());
    }

    @Test
    void refusesLengthAbove16MiBBeforeReadingPayload() {
        Hdr h = new Hdr();
        h.length = Limits.MAX_PAYLOAD + 1L;
        HeaderVerdict.Refuse r = refused(h.check(), "length");
        assertTrue(r.reason().contains("16777217"), r.reason());
    }

    @Test
    void refusesLengthOfFourGiBMinusOne() {
        Hdr h = new Hdr();
        h.length = 0xffff_ffffL;
        refused(h.check(), "length");
    }

    @Test
    void acceptsLengthOf16MiBAndOneLess() {
        Hdr h = new Hdr();
        h.length = Limits.MAX_PAYLOAD;
        accepted(h.check());
        h.length = Limits.MAX_PAYLOAD - 1L;
        accepted(h.check());
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 12, 255})
    void refusesTypeOutside1To11(int type) {
        Hdr h = new Hdr();
        h.type = type;
        HeaderVerdict.Refuse r = refused(h.check(), "type");
        assertTrue(r.reason().contains("type=" + type), r.reason());
    }

    @Test
    void refusesNonzeroFlags() {
        Hdr h = new Hdr();
        h.flags = 0x80;
        refused(h.check(), "flags");
    }

    @Test
    void refusesServiceReservedForRaft() {
        Hdr h = new Hdr();
        h.service = 1;
        refused(h.check(), "service");
    }

    @Test
    void refusesNonzeroMembershipEpoch() {
        Hdr h = new Hdr();
        h.membershipEpoch = Long.MIN_VALUE;
        HeaderVerdict.Refuse r = refused(h.check(), "membership epoch");
        assertTrue(r.reason().contains("9223372036854775808"), r.reason());
    }

    @Test
    void refusesForeignJobId() {
        Hdr h = new Hdr();
        h.jobId = OTHER_JOB;
        HeaderVerdict.Refuse r = refused(h.check(), "job id");
        assertTrue(r.reason().contains(OTHER_JOB.hex()) && r.reason().contains(JOB.hex()), r.reason());
    }

    @Test
    void refusesSourceRankOtherThanAuthenticatedPeer() {
        Hdr h = new Hdr();
        h.source = 2;
        refused(h.check(), "source rank");
    }

    @Test
    void refusesTargetRankOtherThanOwnRank() {
        Hdr h = new Hdr();
        h.target = 0;
        refused(h.check(), "target rank");
    }

    @Test
    void dropsOldIncarnationWithPayloadByteCount() {
        Hdr h = new Hdr();
        h.incarnation = INCARNATION - 1;
        h.length = 12345;
        HeaderVerdict.Drop d = assertInstanceOf(HeaderVerdict.Drop.class, h.check());
        assertEquals(12345, d.discardBytes());
    }

    @Test
    void dropsOldIncarnationOfLength16MiB() {
        Hdr h = new Hdr();
        h.incarnation = 0;
        h.length = Limits.MAX_PAYLOAD;
        assertEquals(Limits.MAX_PAYLOAD, assertInstanceOf(HeaderVerdict.Drop.class, h.check()).discardBytes());
    }

    @Test
    void refusesOldIncarnationWithLengthAbove16MiB() {
        // Length comes first, so even a frame that would be dropped cannot make the receiver skip 4 GiB.
        Hdr h = new Hdr();
        h.incarnation = INCARNATION - 1;
        h.length = Limits.MAX_PAYLOAD + 1L;
        refused(h.check(), "length");
    }

    @Test
    void refusesFutureIncarnation() {
        Hdr h = new Hdr();
        h.incarnation = INCARNATION + 1;
        refused(h.check(), "incarnation");
    }

    @Test
    void refusesReservedTagOnData() {
        Hdr h = new Hdr();
        h.tag = 0x8000_0000L;
        refused(h.check(), "tag");
        h.tag = 0xffff_ffffL;
        refused(h.check(), "tag");
    }

    @Test
    void acceptsLargestUserTagOnData() {
        Hdr h = new Hdr();
        h.tag = Limits.MAX_USER_TAG;
        accepted(h.check());
    }

    @Test
    void refusesNonzeroTagOnCollective() {
        Hdr h = Hdr.of(FrameType.COLLECTIVE, 16);
        h.tag = 1;
        refused(h.check(), "tag");
    }

    @ParameterizedTest
    @EnumSource(value = FrameType.class, names = "DATA", mode = EnumSource.Mode.EXCLUDE)
    void refusesNonzeroTagOnEveryTypeButData(FrameType type) {
        Hdr h = Hdr.of(type, fittingLength(type));
        accepted(h.check());
        h.tag = 7;
        refused(h.check(), "tag");
    }

    @Test
    void checksTagOnlyAfterIncarnationSoOldFramesAreDropped() {
        Hdr data = new Hdr();
        data.incarnation = INCARNATION - 1;
        data.tag = 0x8000_0000L;
        assertInstanceOf(HeaderVerdict.Drop.class, data.check());
        Hdr collective = Hdr.of(FrameType.COLLECTIVE, 16);
        collective.incarnation = INCARNATION - 1;
        collective.tag = 9;
        assertInstanceOf(HeaderVerdict.Drop.class, collective.check());
    }

    @Test
    void checksEpochAndLengthFitOnlyAfterIncarnationSoOldFramesAreDropped() {
        Hdr h = Hdr.of(FrameType.HEARTBEAT, 9);
        h.epoch = 3;
        h.incarnation = INCARNATION - 1;
        assertEquals(9, assertInstanceOf(HeaderVerdict.Drop.class, h.check()).discardBytes());
    }

    @Test
    void refusesFutureIncarnationBeforeLookingAtItsTag() {
        // A future frame with a reserved tag is refused for its incarnation, the earlier rule.
        Hdr h = new Hdr();
        h.incarnation = INCARNATION + 1;
        h.tag = 0x8000_0000L;
        refused(h.check(), "incarnation");
    }

    @ParameterizedTest
    @EnumSource(value = FrameType.class, names = {"HELLO", "DATA", "COLLECTIVE", "HEARTBEAT", "ABORT", "BYE"})
    void refusesEpochOnTypesWithoutCheckpointEpoch(FrameType type) {
        Hdr h = Hdr.of(type, fittingLength(type));
        h.epoch = 1;
        refused(h.check(), "epoch");
    }

    @ParameterizedTest
    @EnumSource(value = FrameType.class, names = {"CKPT_BEGIN", "CKPT_DATA", "CKPT_ACK", "CKPT_COMMIT", "RESUME"})
    void acceptsEpochOnCheckpointTypes(FrameType type) {
        Hdr h = Hdr.of(type, fittingLength(type));
        h.epoch = 0xffff_ffffL;
        accepted(h.check());
    }

    @Test
    void refusesCollectiveShorterThanItsHeader() {
        Hdr h = Hdr.of(FrameType.COLLECTIVE, 15);
        HeaderVerdict.Refuse r = refused(h.check(), "length");
        assertTrue(r.reason().contains("COLLECTIVE"), r.reason());
        h.length = 0;
        refused(h.check(), "length");
    }

    @Test
    void acceptsCollectiveOfItsHeaderAlone() {
        accepted(Hdr.of(FrameType.COLLECTIVE, 16).check());
        accepted(Hdr.of(FrameType.COLLECTIVE, Limits.MAX_PAYLOAD).check());
    }

    @Test
    void acceptsEmptyDataAndByeOfZero() {
        accepted(Hdr.of(FrameType.DATA, 0).check());
        accepted(Hdr.of(FrameType.BYE, 0).check());
        refused(Hdr.of(FrameType.BYE, 1).check(), "length");
    }

    @Test
    void checksHelloLengthAtItsLimits() {
        assertLengthLimits(FrameType.HELLO, 16, 16 + Limits.MAX_TOKEN);
    }

    @Test
    void checksHeartbeatLengthAtItsLimit() {
        assertLengthLimits(FrameType.HEARTBEAT, 8, 8);
    }

    @Test
    void checksAbortLengthAtItsLimits() {
        assertLengthLimits(FrameType.ABORT, 10, 10 + Limits.MAX_ABORT_MESSAGE);
    }

    @Test
    void checksCkptBeginLengthAtItsLimit() {
        assertLengthLimits(FrameType.CKPT_BEGIN, 8, 8);
    }

    @Test
    void checksCkptDataLengthAtItsLimits() {
        assertLengthLimits(FrameType.CKPT_DATA, 24, 24 + Limits.MAX_CHUNK);
    }

    @Test
    void checksCkptAckLengthAtItsLimit() {
        assertLengthLimits(FrameType.CKPT_ACK, 32, 32);
    }

    @Test
    void checksCkptCommitLengthAgainstTheJobSize() {
        assertLengthLimits(FrameType.CKPT_COMMIT, COMMIT, COMMIT);
    }

    @Test
    void checksResumeLengthAtBothAllowedValues() {
        assertLengthLimits(FrameType.RESUME, 4, 4);
        accepted(Hdr.of(FrameType.RESUME, 4 + COMMIT).check());
        refused(Hdr.of(FrameType.RESUME, 4 + COMMIT - 1).check(), "length");
        refused(Hdr.of(FrameType.RESUME, 4 + COMMIT + 1).check(), "length");
    }

    @Test
    void reportsFaultsInTableOrder() {
        Hdr h = new Hdr();
        h.length = 0xffff_ffffL;
        h.type = 0;
        h.flags = 1;
        h.service = 1;
        h.membershipEpoch = 1;
        h.jobId = OTHER_JOB;
        h.source = 0;
        h.target = 0;
        h.incarnation = INCARNATION + 1;
        refused(h.check(), "length");
        h.length = 8;
        refused(h.check(), "type");
        h.type = FrameType.HEARTBEAT.code();
        refused(h.check(), "flags");
        h.flags = 0;
        refused(h.check(), "service");
        h.service = 0;
        refused(h.check(), "membership epoch");
        h.membershipEpoch = 0;
        refused(h.check(), "job id");
        h.jobId = JOB;
        refused(h.check(), "source rank");
        h.source = PEER;
        refused(h.check(), "target rank");
        h.target = OWN;
        refused(h.check(), "incarnation");
        h.incarnation = INCARNATION;
        // After the incarnation: epoch, whether the length fits the type, and the tag last of all (the original
        // text puts the two tag checks after everything else).
        h.epoch = 1;
        h.length = 9;
        h.tag = 1;
        refused(h.check(), "epoch");
        h.epoch = 0;
        refused(h.check(), "length");
        h.length = 8;
        refused(h.check(), "tag");
        h.tag = 0;
        accepted(h.check());
    }

    @Test
    void judgesHeaderAtAnOffsetWithoutMovingThePosition() {
        byte[] b = LeBytes.le().fill(11, 0xff).bytes(new Hdr().bytes()).toBytes();
        ByteBuffer buf = ByteBuffer.wrap(b).position(2).asReadOnlyBuffer();
        accepted(HeaderCheck.check(buf, 11, CTX));
        assertEquals(2, buf.position());
    }

    private static void assertLengthLimits(FrameType type, int min, int max) {
        if (min > 0) {
            refused(Hdr.of(type, min - 1).check(), "length");
        }
        accepted(Hdr.of(type, min).check());
        accepted(Hdr.of(type, max).check());
        HeaderVerdict.Refuse r = refused(Hdr.of(type, max + 1L).check(), "length");
        assertTrue(r.reason().contains(type.name()), r.reason());
    }

    private static long fittingLength(FrameType type) {
        return switch (type) {
            case HELLO -> 16;
            case DATA, BYE -> 0;
            case COLLECTIVE -> 16;
            case HEARTBEAT, CKPT_BEGIN -> 8;
            case ABORT -> 10;
            case CKPT_DATA -> 24;
            case CKPT_ACK -> 32;
            case CKPT_COMMIT -> COMMIT;
            case RESUME -> 4;
        };
    }
}
