package org.sperli.jobspec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.protocol.Limits;

/** One test per structural rule of the job description (tables section 7); every refusal is H1616. */
class JobDescriptionRefusalTest {

    private static SperliException refusedLine(byte[] line) {
        SperliException e = assertThrows(SperliException.class, () -> JobDescription.parseLine(line));
        assertEquals(ErrorCode.H1616, e.code(), e.getMessage());
        return e;
    }

    private static SperliException refusedStream(byte[] input) {
        SperliException e = assertThrows(SperliException.class,
                () -> JobDescription.parse(new ByteArrayInputStream(input)));
        assertEquals(ErrorCode.H1616, e.code(), e.getMessage());
        return e;
    }

    /** Refused on both paths, with a reason that names {@code words}. */
    private static void assertRefused(RawDescription d, String words) {
        byte[] line = d.line();
        String reason = refusedLine(line).reason();
        assertTrue(reason.contains(words), reason);
        byte[] withLf = Arrays.copyOf(line, line.length + 1);
        withLf[line.length] = '\n';
        assertEquals(reason, refusedStream(withLf).reason());
    }

    private static void assertAccepted(RawDescription d) {
        JobDescription.parseLine(d.line());
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void refusesEmptyLine() {
        assertTrue(refusedStream(ascii("\n")).reason().contains("empty line"));
        assertTrue(refusedStream(new byte[0]).reason().contains("empty line"));
        assertTrue(refusedLine(new byte[0]).reason().contains("empty line"));
    }

    @Test
    void refusesOddDigitCount() {
        byte[] line = RawDescription.valid(1, 0).line();
        byte[] odd = Arrays.copyOf(line, line.length - 1);
        assertTrue(refusedLine(odd).reason().contains("odd digit count"));
        assertTrue(refusedStream(odd).reason().contains("odd digit count"));
    }

    @Test
    void refusesJobDescriptionWithUpperCaseHexDigit() {
        byte[] line = RawDescription.valid(1, 0).line();
        line[4] = 'A';
        assertTrue(refusedLine(line).reason().contains("upper-case"));
        assertTrue(refusedStream(line).reason().contains("upper-case"));
        String upper = new String(RawDescription.valid(1, 0).line(), StandardCharsets.US_ASCII).toUpperCase();
        refusedLine(ascii(upper));
    }

    @Test
    void refusesCharacterOutsideHexDigits() {
        for (char c : new char[] {'g', ' ', '\r', '\t', 'x', '-', 0}) {
            byte[] line = RawDescription.valid(1, 0).line();
            line[10] = (byte) c;
            assertTrue(refusedLine(line).reason().contains("not 0-9a-f"), "char " + (int) c);
        }
        refusedStream(ascii(new String(RawDescription.valid(1, 0).line(), StandardCharsets.US_ASCII) + "\r\n"));
    }

    @Test
    void refusesLineLongerThanMaxWithoutReadingItAll() {
        int[] consumed = {0};
        InputStream endless = new InputStream() {
            @Override
            public int read() {
                consumed[0]++;
                return 'a';
            }
        };
        SperliException e = assertThrows(SperliException.class, () -> JobDescription.parse(endless));
        assertEquals(ErrorCode.H1616, e.code());
        assertTrue(e.reason().contains("longer than"), e.reason());
        assertEquals(JobDescription.MAX_LINE_HEX_DIGITS + 1, consumed[0]);
    }

    @Test
    void refusesLineOfBytesLongerThanMaxBeforeDecoding() {
        byte[] line = new byte[JobDescription.MAX_LINE_HEX_DIGITS + 2];
        Arrays.fill(line, (byte) 'a');
        assertTrue(refusedLine(line).reason().contains("longer than"));
    }

    @Test
    void refusesCutFieldAtEveryLength() {
        byte[] bytes = RawDescription.valid(2, 1).toBytes();
        for (int n = 1; n < bytes.length; n++) {
            byte[] line = ascii(HexFormat.of().formatHex(bytes, 0, n));
            assertTrue(refusedLine(line).reason().contains("cut field"), "cut at " + n);
        }
    }

    @Test
    void refusesBytesAfterThePublicKey() {
        RawDescription d = RawDescription.valid(2, 1);
        d.trailing = new byte[] {0};
        assertRefused(d, "after the job public key");
    }

    @Test
    void refusesFormatVersionOtherThan1() {
        for (long v : new long[] {0, 2, 0xffff}) {
            RawDescription d = RawDescription.valid(1, 0);
            d.formatVersion = v;
            assertRefused(d, "format version=" + v);
        }
    }

    @Test
    void refusesAllZeroJobId() {
        RawDescription d = RawDescription.valid(1, 0);
        d.jobId = new byte[16];
        assertRefused(d, "job id is all zero");
    }

    @Test
    void refusesSizeOutside1To4096() {
        for (long size : new long[] {0, 4097, 0xffff_ffffL}) {
            RawDescription d = RawDescription.valid(1, 0);
            d.size = size;
            assertRefused(d, "size=" + size);
        }
    }

    @Test
    void refusesRankNotBelowSize() {
        RawDescription d = RawDescription.valid(2, 1);
        d.rank = 2;
        assertRefused(d, "rank=2");
    }

    @Test
    void refusesIncarnationZero() {
        RawDescription d = RawDescription.valid(1, 0);
        d.incarnation = 0;
        assertRefused(d, "incarnation=0");
    }

    @Test
    void refusesSilenceOutside2000To3600000() {
        for (long ms : new long[] {0, 1999, 3_600_001, 0xffff_ffffL}) {
            RawDescription d = RawDescription.valid(1, 0);
            d.silenceMs = ms;
            assertRefused(d, "silence ms=" + ms);
        }
        for (long ms : new long[] {2000, 3_600_000}) {
            RawDescription d = RawDescription.valid(1, 0);
            d.silenceMs = ms;
            assertAccepted(d);
        }
    }

    @Test
    void refusesPortZero() {
        RawDescription d = RawDescription.valid(2, 0);
        d.hosts.get(1).port = 0;
        assertRefused(d, "host[1] port=0");
    }

    @Test
    void refusesHostLengthZero() {
        RawDescription d = RawDescription.valid(2, 0);
        d.hosts.get(1).length = 0;
        d.hosts.get(1).host = new byte[0];
        assertRefused(d, "host[1] length=0");
    }

    @Test
    void refusesHostLengthAbove253() {
        for (int length : new int[] {254, 255}) {
            RawDescription d = RawDescription.valid(2, 0);
            d.hosts.get(1).length = length;
            d.hosts.get(1).host = ascii("a".repeat(length));
            assertRefused(d, "host[1] length=" + length);
        }
    }

    @Test
    void refusesHostWithBadSyntax() {
        for (String host : new String[] {"Node1.example", "01.2.3.4", "256.1.1.1", "a..b", "-a.com", "::1",
            "a.com."}) {
            RawDescription d = RawDescription.valid(2, 0);
            d.hosts.set(1, new RawDescription.Host(7001, host));
            assertRefused(d, "host[1]:");
        }
    }

    @Test
    void refusesPemLongerThanMaxPem() {
        RawDescription d = RawDescription.valid(1, 0);
        d.certPem("x".repeat(JobDescription.MAX_PEM + 1));
        assertRefused(d, "rank certificate PEM length=16385");
    }

    @Test
    void refusesPemLength0xffffffffWithoutAllocating() {
        RawDescription d = RawDescription.valid(1, 0);
        d.caPemLength = 0xffff_ffffL;
        assertRefused(d, "CA certificate PEM length=4294967295");
    }

    @Test
    void acceptsPemOfExactlyMaxPem() {
        RawDescription d = RawDescription.valid(1, 0);
        d.keyPem("k".repeat(JobDescription.MAX_PEM));
        assertAccepted(d);
    }

    @Test
    void refusesPemThatIsNotAscii() {
        RawDescription d = RawDescription.valid(1, 0);
        d.caPem("caf\u00e9");
        assertRefused(d, "CA certificate PEM has a non-ASCII character");
    }

    @Test
    void refusesTokenLongerThanMaxToken() {
        RawDescription d = RawDescription.valid(1, 0);
        d.token(new byte[Limits.MAX_TOKEN + 1]);
        assertRefused(d, "token length=8193");
        d.tokenLength = 0xffff;
        assertRefused(d, "token length=65535");
    }

    @Test
    void refusesTokenThatDoesNotDecode() {
        RawDescription d = RawDescription.valid(1, 0);
        d.token(Arrays.copyOf(d.token, d.token.length + 1));
        assertRefused(d, "token: join token");
        d.token(new byte[0]);
        assertRefused(d, "token: join token");
    }

    @Test
    void refusesTokenOfAnotherJob() {
        RawDescription d = RawDescription.valid(2, 1);
        d.token(JoinToken.unsigned(JobSpecSamples.OTHER_JOB, 1, 2, 1, 0, "node1.example")
                .withSignature(JobSpecSamples.signature()).toBytes());
        assertRefused(d, "token job id=");
    }

    @Test
    void refusesTokenOfAnotherRank() {
        RawDescription d = RawDescription.valid(2, 1);
        d.token(JobSpecSamples.token(0, 2, 1, "node1.example").toBytes());
        assertRefused(d, "token rank=0");
    }

    @Test
    void refusesTokenOfAnotherSize() {
        RawDescription d = RawDescription.valid(2, 1);
        d.token(JobSpecSamples.token(1, 3, 1, "node1.example").toBytes());
        assertRefused(d, "token size=3");
    }

    @Test
    void refusesTokenOfAnotherIncarnation() {
        RawDescription d = RawDescription.valid(2, 1);
        d.token(JobSpecSamples.token(1, 2, 2, "node1.example").toBytes());
        assertRefused(d, "token incarnation=2");
    }

    @Test
    void refusesTokenWhoseHostIsNotTheHostListEntryOfThisRank() {
        RawDescription d = RawDescription.valid(2, 1);
        d.token(JobSpecSamples.token(1, 2, 1, "node0.example").toBytes());
        assertRefused(d, "token host=");
    }

    @Test
    void refusesSigningKeyMissingAtRank0() {
        RawDescription d = RawDescription.valid(2, 0);
        d.signingKey(new byte[0]);
        assertRefused(d, "job signing key length=0, expected 64 at rank 0");
    }

    @Test
    void refusesSigningKeyOfOtherLengthAtRank0() {
        RawDescription d = RawDescription.valid(2, 0);
        d.signingKey(new byte[32]);
        assertRefused(d, "job signing key length=32");
        d.signingKeyLength = 0xffff_ffffL;
        assertRefused(d, "job signing key length=4294967295");
    }

    @Test
    void refusesSigningKeyAtOtherRank() {
        RawDescription d = RawDescription.valid(2, 1);
        d.signingKey(JobSpecSamples.signingKey());
        assertRefused(d, "job signing key length=64, expected 0 at rank 1");
    }

    @Test
    void refusesCutPublicKey() {
        RawDescription d = RawDescription.valid(2, 1);
        d.publicKey = new byte[1343];
        assertRefused(d, "cut field: job public key");
    }

    @Test
    void reportsTheFirstFaultInFieldOrder() {
        RawDescription d = RawDescription.valid(2, 1);
        d.incarnation = 0;
        d.silenceMs = 1;
        d.hosts.get(0).port = 0;
        d.signingKey(new byte[64]);
        assertRefused(d, "incarnation=0");
    }
}
