package org.sperli.protocol.payload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.sperli.protocol.payload.Refusals.assertNotEncodable;
import static org.sperli.protocol.payload.Refusals.assertRefused;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.sperli.ErrorCode;
import org.sperli.protocol.LeBytes;
import org.sperli.protocol.Limits;

class AbortTest {
    static final String MESSAGE = "rank 2 lost: Grüße";
    static final byte[] MESSAGE_UTF8 = MESSAGE.getBytes(StandardCharsets.UTF_8);

    static byte[] valid() {
        return LeBytes.le()
                .u32(1)                      // reason: peer lost
                .u32(1613)                   // code: H1613
                .u16(MESSAGE_UTF8.length)    // message length
                .bytes(MESSAGE_UTF8)         // message, UTF-8
                .toBytes();
    }

    static ByteBuffer withMessage(long messageLength, byte[] message) {
        return LeBytes.le().u32(7).u32(0).u16(messageLength).bytes(message).buffer();
    }

    @Test
    void offsetsFollowTheTable() {
        assertEquals(0, Abort.REASON_OFFSET);
        assertEquals(4, Abort.CODE_OFFSET);
        assertEquals(8, Abort.MESSAGE_LENGTH_OFFSET);
        assertEquals(10, Abort.MESSAGE_OFFSET);
        assertEquals(1034, Abort.MAX_LENGTH);
    }

    @Test
    void decodesFieldByField() {
        Abort a = Abort.read(ByteBuffer.wrap(valid()));
        assertEquals(new Abort(1, 1613, MESSAGE), a);
        assertEquals(Abort.Reason.PEER_LOST, a.knownReason());
        assertEquals(ErrorCode.H1613, a.errorCode());
    }

    @Test
    void ofEncodesTheSameBytes() {
        assertArrayEquals(valid(), Abort.of(Abort.Reason.PEER_LOST, ErrorCode.H1613, MESSAGE).toBytes());
        assertArrayEquals(valid(), Abort.of(1, ErrorCode.H1613, MESSAGE).toBytes());
    }

    @Test
    void reasonCodesFollowTheTable() {
        int expected = 1;
        for (Abort.Reason r : Abort.Reason.values()) {
            assertEquals(expected, r.code());
            assertEquals(r, Abort.Reason.ofCode(expected++));
        }
        assertEquals(8, Abort.Reason.OPERATOR_STOP.code());
        assertNull(Abort.Reason.ofCode(0));
        assertNull(Abort.Reason.ofCode(9));
    }

    @Test
    void acceptsUnknownReasonAndCode() {
        byte[] b = LeBytes.le().u32(0xffff_ffffL).u32(4242).u16(0).toBytes();
        Abort a = Abort.read(ByteBuffer.wrap(b));
        assertEquals(0xffff_ffffL, a.reason());
        assertNull(a.knownReason());
        assertNull(a.errorCode());
        assertEquals("", a.message());
        assertArrayEquals(b, a.toBytes());
    }

    @Test
    void decodesMalformedUtf8Leniently() {
        byte[] bad = {'o', 'k', (byte) 0xff, (byte) 0xc3};
        Abort a = Abort.read(withMessage(bad.length, bad));
        assertEquals("ok\uFFFD\uFFFD", a.message());
    }

    @Test
    void acceptsMessageOf1024Bytes() {
        byte[] m = new byte[Limits.MAX_ABORT_MESSAGE];
        java.util.Arrays.fill(m, (byte) 'x');
        assertEquals(1024, Abort.read(withMessage(m.length, m)).message().length());
    }

    @Test
    void refusesMessageLengthAbove1024() {
        byte[] m = new byte[Limits.MAX_ABORT_MESSAGE + 1];
        assertRefused(ErrorCode.H1610, "message length", () -> Abort.read(withMessage(m.length, m)));
        assertRefused(ErrorCode.H1610, "message length", () -> Abort.read(withMessage(0xffff, m)));
    }

    @Test
    void refusesMessageLengthOtherThanPayloadLengthMinus10() {
        assertRefused(ErrorCode.H1610, "message length", () -> Abort.read(withMessage(3, new byte[2])));
        assertRefused(ErrorCode.H1610, "message length", () -> Abort.read(withMessage(1, new byte[2])));
    }

    @Test
    void refusesCutInputAtEveryLength() {
        byte[] b = valid();
        for (int n = 0; n < b.length; n++) {
            int cut = n;
            String field = n < Abort.FIXED_LENGTH ? "length" : "message length";
            assertRefused(ErrorCode.H1610, field, () -> Abort.read(LeBytes.cut(b, cut)));
        }
    }

    @Test
    void refusesTrailingByte() {
        assertRefused(ErrorCode.H1610, "message length", () -> Abort.read(LeBytes.withTrailingByte(valid())));
    }

    @Test
    void ofSendsCode0WithoutAnErrorCodeAndEmptyMessageForNull() {
        Abort a = Abort.of(Abort.Reason.OPERATOR_STOP, null, null);
        assertEquals(new Abort(8, 0, ""), a);
        assertEquals(10, a.encodedLength());
    }

    @Test
    void ofRefusesReasonOutside1To8() {
        assertThrows(IllegalArgumentException.class, () -> Abort.of(0, ErrorCode.H1610, "x"));
        assertThrows(IllegalArgumentException.class, () -> Abort.of(9, ErrorCode.H1610, "x"));
    }

    @Test
    void ofTruncatesAsciiTo1024Bytes() {
        assertEquals(1024, Abort.of(7, null, "x".repeat(5000)).encodedLength() - 10);
    }

    @Test
    void ofTruncatesOnACharacterBoundary() {
        assertEquals("ü".repeat(512), Abort.of(7, null, "ü".repeat(600)).message());
        // 3-byte characters: 341 of them are 1023 bytes, the 342nd would not fit.
        assertEquals("€".repeat(341), Abort.of(7, null, "€".repeat(400)).message());
        // 4-byte characters are surrogate pairs: never split into halves.
        String emoji = "\uD83D\uDE00";
        assertEquals(emoji.repeat(256), Abort.of(7, null, emoji.repeat(300)).message());
        assertEquals("a".repeat(1023), Abort.of(7, null, "a".repeat(1023) + emoji).message());
        assertEquals("a".repeat(1022) + "ü", Abort.of(7, null, "a".repeat(1022) + "üü").message());
    }

    @Test
    void ofKeepsShortMessagesWhole() {
        assertEquals(MESSAGE, Abort.of(7, null, MESSAGE).message());
        String exactly = "€".repeat(340) + "abcd";
        assertEquals(exactly, Abort.of(7, null, exactly).message());
    }

    @Test
    void ofReplacesUnpairedSurrogatesSoTheLengthIsExact() {
        Abort a = Abort.of(7, null, "a\uD800b");
        assertEquals("a?b", a.message());
        assertEquals(a, Abort.read(ByteBuffer.wrap(a.toBytes())));
    }

    @Test
    void encoderRefusesWhatTheDecoderRefuses() {
        assertNotEncodable("message length", () -> new Abort(7, 0, "x".repeat(1025)).toBytes());
        assertNotEncodable("message length", () -> new Abort(7, 0, "ü".repeat(513)).toBytes());
        assertNotEncodable("reason", () -> new Abort(-1, 0, "").toBytes());
        assertNotEncodable("code", () -> new Abort(1, 1L << 32, "").toBytes());
    }

    @Test
    void decodedMalformedMessageCanGrowBeyondTheLimitWhenEncodedAgain() {
        byte[] bad = new byte[Limits.MAX_ABORT_MESSAGE];
        java.util.Arrays.fill(bad, (byte) 0xff);
        Abort a = Abort.read(withMessage(bad.length, bad));
        assertEquals(1024, a.message().length());
        assertNotEncodable("message length", a::toBytes);
    }
}
