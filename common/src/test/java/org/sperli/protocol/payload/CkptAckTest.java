package org.sperli.protocol.payload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.sperli.protocol.payload.Refusals.assertNotEncodable;
import static org.sperli.protocol.payload.Refusals.assertRefused;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.sperli.ErrorCode;
import org.sperli.protocol.LeBytes;

class CkptAckTest {
    static byte[] hash() {
        byte[] h = new byte[32];
        for (int i = 0; i < h.length; i++) {
            h[i] = (byte) (0xa0 + i);
        }
        return h;
    }

    static byte[] valid() {
        return LeBytes.le()
                .bytes(hash())   // SHA-256 of the rank file
                .toBytes();
    }

    @Test
    void isThirtyTwoBytes() {
        assertEquals(0, CkptAck.SHA256_OFFSET);
        assertEquals(32, CkptAck.LENGTH);
    }

    @Test
    void decodesFieldByField() {
        assertArrayEquals(hash(), CkptAck.read(ByteBuffer.wrap(valid())).sha256());
        assertEquals(new CkptAck(hash()), CkptAck.read(LeBytes.embedded(valid())));
    }

    @Test
    void encodesTheSameBytes() {
        assertArrayEquals(valid(), new CkptAck(hash()).toBytes());
    }

    @Test
    void refusesCutInputAtEveryLength() {
        for (int n = 0; n < 32; n++) {
            int cut = n;
            assertRefused(ErrorCode.H1610, "length", () -> CkptAck.read(LeBytes.cut(valid(), cut)));
        }
    }

    @Test
    void refusesTrailingByte() {
        assertRefused(ErrorCode.H1610, "length", () -> CkptAck.read(LeBytes.withTrailingByte(valid())));
    }

    @Test
    void encoderRefusesHashOfAnotherLength() {
        assertNotEncodable("sha256 length", () -> new CkptAck(new byte[31]).toBytes());
        assertNotEncodable("sha256 length", () -> new CkptAck(new byte[33]).encodedLength());
    }

    @Test
    void hashIsCopiedInAndOut() {
        byte[] h = hash();
        CkptAck a = new CkptAck(h);
        h[0] = 0;
        a.sha256()[1] = 0;
        assertArrayEquals(hash(), a.sha256());
    }
}
