package org.sperli.protocol.frame;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FrameTypeTest {
    /** Tables section 2, payload length column, for a job of 1 rank (COMMIT: 2522 + 32 x 1). */
    private static final Map<FrameType, String> TABLE = new EnumMap<>(Map.ofEntries(
            Map.entry(FrameType.HELLO, "16..8208"),
            Map.entry(FrameType.DATA, "0..16777216"),
            Map.entry(FrameType.COLLECTIVE, "16..16777216"),
            Map.entry(FrameType.HEARTBEAT, "exactly 8"),
            Map.entry(FrameType.ABORT, "10..1034"),
            Map.entry(FrameType.CKPT_BEGIN, "exactly 8"),
            Map.entry(FrameType.CKPT_DATA, "24..1048600"),
            Map.entry(FrameType.CKPT_ACK, "exactly 32"),
            Map.entry(FrameType.CKPT_COMMIT, "exactly 2554"),
            Map.entry(FrameType.RESUME, "4 or 2558"),
            Map.entry(FrameType.BYE, "exactly 0")));

    @Test
    void everyTypesLengthRuleDerivedFromThePayloadLayoutsIsTheTables() {
        for (FrameType type : FrameType.values()) {
            assertEquals(TABLE.get(type), type.lengthRule(1).toString(), type.name());
        }
    }

    @Test
    void resumeAllowsItsTwoLengthsAndNothingBetween() {
        LengthRule rule = FrameType.RESUME.lengthRule(2);
        assertTrue(rule.allows(4));
        assertTrue(rule.allows(4 + 2522 + 64));
        assertFalse(rule.allows(5));
        assertFalse(rule.allows(4 + 2522 + 63));
    }

    @Test
    void aRangeAllowsBothEndsAndNothingOutside() {
        LengthRule rule = FrameType.ABORT.lengthRule(1);
        assertTrue(rule.allows(10));
        assertTrue(rule.allows(1034));
        assertFalse(rule.allows(9));
        assertFalse(rule.allows(1035));
    }
}
