package org.sperli.protocol.payload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.sperli.protocol.payload.Refusals.assertNotEncodable;
import static org.sperli.protocol.payload.Refusals.assertRefused;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.sperli.ErrorCode;
import org.sperli.protocol.LeBytes;
import org.sperli.protocol.Limits;

class HelloTest {
    static final byte[] TOKEN = {1, 2, 3, 4, 5};

    static LeBytes fixed(long version, long features, long tokenLength) {
        return LeBytes.le()
                .u32(version)        // protocol version
                .u64(features)       // feature bits
                .u32(tokenLength);   // token length
    }

    static byte[] valid() {
        return fixed(1, 1, TOKEN.length).bytes(TOKEN).toBytes();
    }

    @Test
    void offsetsFollowTheTable() {
        assertEquals(0, Hello.VERSION_OFFSET);
        assertEquals(4, Hello.FEATURES_OFFSET);
        assertEquals(12, Hello.TOKEN_LENGTH_OFFSET);
        assertEquals(16, Hello.TOKEN_OFFSET);
    }

    @Test
    void decodesFieldByField() {
        Hello h = Hello.read(ByteBuffer.wrap(valid()));
        assertEquals(1, h.version());
        assertEquals(1, h.features());
        assertArrayEquals(TOKEN, h.token());
    }

    @Test
    void v1EncodesTheSameBytes() {
        assertArrayEquals(valid(), Hello.v1(TOKEN).toBytes());
        assertEquals(21, Hello.v1(TOKEN).encodedLength());
    }

    @Test
    void roundTripsWithFeatureBitsBeyondBase() {
        Hello h = new Hello(1, 0x8000_0000_0000_0003L, new byte[Limits.MAX_TOKEN]);
        assertEquals(h, Hello.read(ByteBuffer.wrap(h.toBytes())));
    }

    @Test
    void decodesFromTheMiddleOfADirectReadOnlyBufferWithoutMovingIt() {
        ByteBuffer b = LeBytes.embedded(valid());
        int position = b.position();
        assertEquals(Hello.v1(TOKEN), Hello.read(b));
        assertEquals(position, b.position());
    }

    @Test
    void acceptsEmptyToken() {
        // An empty token is not this codec's business; the token parser refuses it.
        assertArrayEquals(new byte[0], Hello.read(fixed(1, 1, 0).buffer()).token());
    }

    @Test
    void refusesVersionOtherThan1() {
        assertRefused(ErrorCode.H1614, "version", () -> Hello.read(fixed(2, 1, 0).buffer()));
        assertRefused(ErrorCode.H1614, "version", () -> Hello.read(fixed(0, 1, 0).buffer()));
    }

    /** Protocol 7.1: bits 1..63 mean nothing in v1 and are ignored; they are kept as read, never refused. */
    @Test
    void unknownFeatureBitsBesideBit0AreAccepted() {
        assertEquals(-1L, Hello.read(fixed(1, -1L, 0).buffer()).features());
        assertEquals(0x8000_0000_0000_0001L, Hello.read(fixed(1, 0x8000_0000_0000_0001L, 0).buffer()).features());
    }

    @Test
    void refusesFeaturesWithoutBit0() {
        assertRefused(ErrorCode.H1614, "features", () -> Hello.read(fixed(1, 0xfffe, 0).buffer()));
    }

    @Test
    void refusesTokenLengthOtherThanPayloadLengthMinus16() {
        assertRefused(ErrorCode.H1614, "token length",
                () -> Hello.read(fixed(1, 1, 4).bytes(TOKEN).buffer()));
    }

    @Test
    void refusesTokenLengthOf4GiBWithoutAllocating() {
        assertRefused(ErrorCode.H1614, "token length", () -> Hello.read(fixed(1, 1, 0xffff_ffffL).buffer()));
    }

    @Test
    void refusesTokenAbove8192() {
        byte[] b = fixed(1, 1, Limits.MAX_TOKEN + 1).fill(Limits.MAX_TOKEN + 1, 7).toBytes();
        assertRefused(ErrorCode.H1614, "token length", () -> Hello.read(ByteBuffer.wrap(b)));
    }

    @Test
    void refusesCutInputAtEveryLength() {
        byte[] b = valid();
        for (int n = 0; n < Hello.FIXED_LENGTH; n++) {
            int cut = n;
            assertRefused(ErrorCode.H1610, "length", () -> Hello.read(LeBytes.cut(b, cut)));
        }
        for (int n = Hello.FIXED_LENGTH; n < b.length; n++) {
            int cut = n;
            assertRefused(ErrorCode.H1614, "token length", () -> Hello.read(LeBytes.cut(b, cut)));
        }
    }

    @Test
    void refusesTrailingByte() {
        assertRefused(ErrorCode.H1614, "token length", () -> Hello.read(LeBytes.withTrailingByte(valid())));
    }

    @Test
    void encoderRefusesWhatTheDecoderRefuses() {
        assertNotEncodable("version", () -> new Hello(2, 1, TOKEN).toBytes());
        assertNotEncodable("version", () -> new Hello(-1, 1, TOKEN).encodedLength());
        assertNotEncodable("features", () -> new Hello(1, 2, TOKEN).toBytes());
        assertNotEncodable("token length", () -> Hello.v1(new byte[Limits.MAX_TOKEN + 1]).toBytes());
    }

    @Test
    void writesAtThePositionAndAdvancesIt() {
        ByteBuffer out = ByteBuffer.allocate(40).position(3);
        Hello.v1(TOKEN).write(out);
        assertEquals(3 + 21, out.position());
        assertEquals(Hello.v1(TOKEN), Hello.read(out.flip().position(3)));
    }

    @Test
    void tokenIsCopiedInAndOut() {
        byte[] token = TOKEN.clone();
        Hello h = Hello.v1(token);
        token[0] = 9;
        h.token()[1] = 9;
        assertArrayEquals(TOKEN, h.token());
        assertNotSame(h.token(), h.token());
    }
}
