package org.sperli.jobspec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sperli.ErrorCode;
import org.sperli.SperliException;

/** Layout, round trips, the line on a stream and the secrets; the refusals are in {@link JobDescriptionRefusalTest}. */
class JobDescriptionTest {

    @Test
    void maxLineIsComputedFromTheLargestFields() {
        int fixed = 2 + 16 + 4 + 4 + 4 + 4;
        int hosts = 4096 * (2 + 1 + 253);
        int pems = 3 * (4 + 16384);
        int rest = (2 + 8192) + (4 + 64) + 1344;
        assertEquals(fixed, JobDescription.HOSTS_OFFSET);
        assertEquals(fixed + hosts + pems + rest, JobDescription.MAX_BYTES);
        assertEquals(2 * JobDescription.MAX_BYTES, JobDescription.MAX_LINE_HEX_DIGITS);
        assertEquals(2_214_760, JobDescription.MAX_LINE_HEX_DIGITS);
    }

    @Test
    void writesFieldByField() {
        byte[] token = JobSpecSamples.token(0, 2, 1, "node0.example").toBytes();
        byte[] expected = new RawDescription.Le()
                .u16(1)                                   // format version
                .bytes(JobSpecSamples.JOB.toBytes())      // job id
                .u32(2)                                   // size
                .u32(0)                                   // rank
                .u32(1)                                   // incarnation
                .u32(5000)                                // silence limit, ms
                .u16(7000).u8(13).ascii("node0.example")  // host 0: port, length, host
                .u16(7001).u8(13).ascii("node1.example")  // host 1: port, length, host
                .u32(JobSpecSamples.CA_PEM.length()).ascii(JobSpecSamples.CA_PEM)      // CA certificate PEM
                .u32(JobSpecSamples.CERT_PEM.length()).ascii(JobSpecSamples.CERT_PEM)  // rank certificate PEM
                .u32(JobSpecSamples.KEY_PEM.length()).ascii(JobSpecSamples.KEY_PEM)    // rank key PEM
                .u16(token.length).bytes(token)           // join token
                .u32(64).bytes(JobSpecSamples.signingKey())  // job signing key, rank 0
                .bytes(JobSpecSamples.publicKey())        // job public key, last
                .toBytes();
        JobDescription d = JobSpecSamples.description(2, 0);
        assertArrayEquals(expected, d.toBytes());
        assertEquals(expected.length, d.encodedLength());
        assertEquals(HexFormat.of().formatHex(expected) + "\n", d.toHexLine());
    }

    @Test
    void roundTripsThroughTheLine() throws IOException {
        for (int rank = 0; rank < 3; rank++) {
            JobDescription d = JobSpecSamples.description(3, rank);
            JobDescription back = JobDescription.parse(new ByteArrayInputStream(d.toHexLineBytes()));
            assertEquals(d, back);
            assertArrayEquals(d.toBytes(), back.toBytes());
            assertEquals(new JobDescription.HostEntry("node" + rank + ".example", 7000 + rank), back.ownHost());
            assertEquals(rank == 0, back.holdsSigningKey());
            assertEquals(rank, back.joinToken().rank());
        }
    }

    @Test
    void acceptsMissingFinalLineFeedAtEndOfInput() throws IOException {
        JobDescription d = JobSpecSamples.description(2, 1);
        byte[] line = RawDescription.valid(2, 1).line();
        assertEquals(d, JobDescription.parse(new ByteArrayInputStream(line)));
        assertEquals(d, JobDescription.parseLine(line));
    }

    @Test
    void readsNothingAfterTheLineFeed() throws IOException {
        byte[] line = JobSpecSamples.description(2, 1).toHexLineBytes();
        byte[] input = Arrays.copyOf(line, line.length + 4);
        System.arraycopy("rest".getBytes(StandardCharsets.US_ASCII), 0, input, line.length, 4);
        InputStream in = new ByteArrayInputStream(input);
        JobDescription.parse(in);
        assertArrayEquals("rest".getBytes(StandardCharsets.US_ASCII), in.readAllBytes());
    }

    @Test
    void toStringRedactsTheRankKeyAndTheSigningKey() {
        JobDescription d = JobSpecSamples.description(2, 0);
        String s = d.toString();
        assertFalse(s.contains(JobSpecSamples.KEY_MARKER), s);
        assertFalse(s.contains("PRIVATE KEY"), s);
        assertFalse(s.toLowerCase().contains("5a5a"), s);
        assertFalse(s.contains(Arrays.toString(JobSpecSamples.signingKey())), s);
        assertTrue(s.contains("<redacted>"), s);
    }

    @Test
    void destroySecretsZeroesTheSigningKey() {
        JobDescription d = JobSpecSamples.description(2, 0);
        d.destroySecrets();
        assertArrayEquals(new byte[64], d.jobSigningKey());
    }

    @Test
    void signingKeyIsCopiedOut() {
        JobDescription d = JobSpecSamples.description(2, 0);
        byte[] key = d.jobSigningKey();
        Arrays.fill(key, (byte) 0);
        assertArrayEquals(JobSpecSamples.signingKey(), d.jobSigningKey());
    }

    @Test
    void refusesToEncodeWhatTheParserRefuses() {
        JobDescription ok = JobSpecSamples.description(2, 1);
        JobDescription rankTooHigh = new JobDescription(1, ok.jobId(), 2, 2, 1, 5000, ok.hosts(), ok.caCertPem(),
                ok.rankCertPem(), ok.rankKeyPem(), ok.token(), new byte[0], ok.jobPublicKey());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, rankTooHigh::toBytes);
        assertTrue(e.getMessage().contains("rank=2"), e.getMessage());
        JobDescription keyAtRank1 = new JobDescription(1, ok.jobId(), 2, 1, 1, 5000, ok.hosts(), ok.caCertPem(),
                ok.rankCertPem(), ok.rankKeyPem(), ok.token(), JobSpecSamples.signingKey(), ok.jobPublicKey());
        assertThrows(IllegalArgumentException.class, keyAtRank1::toHexLine);
        JobDescription shortHostList = new JobDescription(1, ok.jobId(), 2, 1, 1, 5000,
                JobSpecSamples.hosts(1), ok.caCertPem(), ok.rankCertPem(), ok.rankKeyPem(), ok.token(), new byte[0],
                ok.jobPublicKey());
        assertThrows(IllegalArgumentException.class, shortHostList::encodedLength);
        JobDescription otherHostInToken = new JobDescription(1, ok.jobId(), 2, 1, 1, 5000, ok.hosts(),
                ok.caCertPem(), ok.rankCertPem(), ok.rankKeyPem(),
                JobSpecSamples.token(1, 2, 1, "node0.example").toBytes(), new byte[0], ok.jobPublicKey());
        assertThrows(IllegalArgumentException.class, otherHostInToken::toBytes);
    }

    @Test
    void aHostListEncodedOnceGivesTheSameLineAsEachDescriptionAlone() throws IOException {
        List<JobDescription.HostEntry> hosts = JobSpecSamples.hosts(3);
        EncodedHostList shared = EncodedHostList.of(hosts);
        for (int rank = 0; rank < 3; rank++) {
            JobDescription d = JobSpecSamples.description(3, rank);
            DescriptionLine line = d.toLine(shared);
            assertArrayEquals(d.toHexLineBytes(), line.toBytes());
            assertEquals(HexFormat.of().formatHex(d.toBytes()) + "\n",
                    new String(line.toBytes(), StandardCharsets.US_ASCII));
            assertEquals(line.toBytes().length, line.length());
            ByteArrayOutputStream written = new ByteArrayOutputStream();
            line.writeTo(written);
            assertArrayEquals(line.toBytes(), written.toByteArray(), "written in parts, it is the same line");
            line.wipe();
            int hostDigits = 2 * hosts.stream().mapToInt(h -> 3 + h.host().length()).sum();
            byte[] wiped = line.toBytes();
            assertEquals(hostDigits, wiped.length - countZeros(wiped), "wiped, the shared host list's digits are left");
        }
    }

    @Test
    void anEncodedHostListOfAnotherJobIsRefused() {
        JobDescription d = JobSpecSamples.description(2, 1);
        EncodedHostList other = EncodedHostList.of(List.of(new JobDescription.HostEntry("node0.example", 47000),
                new JobDescription.HostEntry("other.example", 47001)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> d.toLine(other));
        assertTrue(e.getMessage().contains("not this description's"), e.getMessage());
    }

    @Test
    void anEncodedHostListRefusesABadEntryWithTheWordsOfTheDescriptionCheck() {
        List<JobDescription.HostEntry> hosts = List.of(new JobDescription.HostEntry("node0.example", 47000),
                new JobDescription.HostEntry("bad host", 47001));
        JobDescription ok = JobSpecSamples.description(2, 0);
        JobDescription withBadHost = new JobDescription(1, ok.jobId(), 2, 0, 1, 5000, hosts, ok.caCertPem(),
                ok.rankCertPem(), ok.rankKeyPem(), ok.token(), JobSpecSamples.signingKey(), ok.jobPublicKey());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EncodedHostList.of(hosts));
        assertEquals("refusing to encode a job description a rank refuses: " + withBadHost.structuralFault(),
                e.getMessage());
        assertTrue(e.getMessage().contains("host[1]"), e.getMessage());
        IllegalArgumentException port = assertThrows(IllegalArgumentException.class,
                () -> EncodedHostList.of(List.of(new JobDescription.HostEntry("node0.example", 0))));
        assertTrue(port.getMessage().contains("port"), port.getMessage());
    }

    @Test
    void everyFaultOfTheParserIsH1616() {
        SperliException e = assertThrows(SperliException.class,
                () -> JobDescription.parse(new ByteArrayInputStream(new byte[0])));
        assertEquals(ErrorCode.H1616, e.code());
    }

    private static int countZeros(byte[] bytes) {
        int zeros = 0;
        for (byte b : bytes) {
            zeros += b == 0 ? 1 : 0;
        }
        return zeros;
    }
}
