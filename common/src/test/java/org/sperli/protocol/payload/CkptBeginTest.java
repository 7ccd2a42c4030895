package org.sperli.protocol.payload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.sperli.protocol.payload.Refusals.assertNotEncodable;
import static org.sperli.protocol.payload.Refusals.assertRefused;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.sperli.ErrorCode;
import org.sperli.protocol.LeBytes;

class CkptBeginTest {
    static byte[] bytes(long version, long size) {
        return LeBytes.le()
                .u32(version)   // version
                .u32(size)      // size
                .toBytes();
    }

    @Test
    void offsetsFollowTheTable() {
        assertEquals(0, CkptBegin.VERSION_OFFSET);
        assertEquals(4, CkptBegin.SIZE_OFFSET);
        assertEquals(8, CkptBegin.LENGTH);
    }

    @Test
    void decodesFieldByField() {
        assertEquals(new CkptBegin(1, 4096), CkptBegin.read(ByteBuffer.wrap(bytes(1, 4096))));
    }

    @Test
    void v1EncodesTheSameBytes() {
        assertArrayEquals(bytes(1, 4096), CkptBegin.v1(4096).toBytes());
    }

    @Test
    void readLeavesVersionAndSizeToCheck() {
        CkptBegin b = CkptBegin.read(LeBytes.embedded(bytes(0xffff_ffffL, 0xffff_ffffL)));
        assertEquals(0xffff_ffffL, b.version());
        assertEquals(0xffff_ffffL, b.size());
    }

    @Test
    void checkAcceptsVersion1AndTheJobSize() {
        assertDoesNotThrow(() -> CkptBegin.v1(3).check(3));
    }

    @Test
    void checkRefusesVersionOtherThan1WithH1619() {
        assertRefused(ErrorCode.H1619, "version", () -> new CkptBegin(2, 3).check(3));
    }

    @Test
    void checkRefusesSizeOtherThanTheJobWithH1623() {
        assertRefused(ErrorCode.H1623, "size", () -> new CkptBegin(1, 4).check(3));
    }

    @Test
    void checkJudgesVersionBeforeSize() {
        assertRefused(ErrorCode.H1619, "version", () -> new CkptBegin(0, 9).check(3));
    }

    @Test
    void refusesCutInputAtEveryLength() {
        for (int n = 0; n < 8; n++) {
            int cut = n;
            assertRefused(ErrorCode.H1610, "length", () -> CkptBegin.read(LeBytes.cut(bytes(1, 2), cut)));
        }
    }

    @Test
    void refusesTrailingByte() {
        assertRefused(ErrorCode.H1610, "length", () -> CkptBegin.read(LeBytes.withTrailingByte(bytes(1, 2))));
    }

    @Test
    void encoderRefusesWhatEveryReceiverRefuses() {
        assertNotEncodable("version", () -> new CkptBegin(2, 3).toBytes());
        assertNotEncodable("size", () -> new CkptBegin(1, 0).toBytes());
        assertNotEncodable("size", () -> new CkptBegin(1, 4097).toBytes());
    }
}
