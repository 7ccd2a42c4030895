package org.sperli.jobspec;

import java.io.IOException;
import java.io.InputStream;
import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.ReadOnlyBufferException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.sperli.protocol.JobId;
import org.sperli.protocol.Limits;

/**
 * The job description a rank reads from its standard input (tables section 7): one line of lower-case hex digits
 * and a line feed; the bytes behind the digits are, little endian:
 *
 * <pre>
 * off  size           field
 *   0     2           format version, 1
 *   2    16           job id, not all zero
 *  18     4           size, 1..4096
 *  22     4           rank, below size
 *  26     4           incarnation, from 1
 *  30     4           silence limit in ms, 2000..3600000
 *  34     size x      host list: port (u16, 1..65535), host length (u8, 1..253), host ({@link HostSyntax})
 *                     then, each as a length and the bytes:
 *       4 + n         job CA certificate, PEM, n &lt;= {@value #MAX_PEM}
 *       4 + n         this rank's certificate, PEM, n &lt;= {@value #MAX_PEM}
 *       4 + n         this rank's Ed25519 private key, PKCS#8 PEM, n &lt;= {@value #MAX_PEM} (SECRET)
 *       2 + n         this rank's join token, n &lt;= 8192
 *       4 + n         job signing key: n = 64 at rank 0, else 0 (SECRET)
 *    1344             job public key, last
 * </pre>
 *
 * <p><b>Checked here (structural, H1616, first fault in field order):</b> an empty line, an odd digit count, a
 * character outside {@code 0-9a-f} (upper case too), a line longer than {@link #MAX_LINE_HEX_DIGITS}, a cut field,
 * bytes after the public key, every range above, the host syntax, a PEM over {@value #MAX_PEM} bytes or not ASCII,
 * a token that does not decode ({@link JoinToken#read}) or whose job id, rank, size, incarnation or host differ from
 * this description and the host-list entry of this rank, and a signing key of the wrong length for the rank.
 *
 * <p><b>Checked after this, by the validator in {@code org.sperli.identity} (still H1616, then H1615):</b> that the
 * PEM texts parse; that the rank certificate is Ed25519, signed by the job CA, named
 * {@code sperli-<job id>-<rank>} and holds the public key of the private key; that the token has not expired on the
 * rank's clock (and its signature, which the peers verify); and then every host-list entry against the refused-host
 * policy (H1615). This class reads no clock and no environment.
 *
 * <p><b>Secrets.</b> The rank key PEM and the job signing key are secret: {@link #toString()} never shows them, the
 * description is never to be written to a file, and {@link #destroySecrets()} zeroes the signing key this record
 * holds. The PEM is a {@code String} and cannot be wiped; the parser wipes every buffer it used. Arrays are copied on
 * the way in and out, so the caller zeroes its own copies (for example of {@link #jobSigningKey()}) after use.
 *
 * <p>Construction does not check; {@link #encodedLength()} and the writers refuse (IllegalArgumentException) any
 * description the parser refuses, with the same words.
 */
public record JobDescription(
        int formatVersion,
        JobId jobId,
        int size,
        int rank,
        long incarnation,
        long silenceMs,
        List<HostEntry> hosts,
        String caCertPem,
        String rankCertPem,
        String rankKeyPem,
        byte[] token,
        byte[] jobSigningKey,
        byte[] jobPublicKey) {

    /** The one format of v1. */
    public static final int FORMAT_VERSION = 1;
    // Each field's offset named, from the one before, as every layout here is written: the tables look alike on
    // purpose, so that each reads against the protocol's own table line by line.
    public static final int FORMAT_VERSION_OFFSET = 0;
    public static final int JOB_ID_OFFSET = FORMAT_VERSION_OFFSET + 2;
    public static final int SIZE_OFFSET = JOB_ID_OFFSET + JobId.LENGTH;
    public static final int RANK_OFFSET = SIZE_OFFSET + 4;
    public static final int INCARNATION_OFFSET = RANK_OFFSET + 4;
    public static final int SILENCE_MS_OFFSET = INCARNATION_OFFSET + 4;
    /** Where the host list starts, after the fixed fields: 34. */
    public static final int HOSTS_OFFSET = SILENCE_MS_OFFSET + 4;
    /** Largest PEM text of each of the three PEM fields. */
    public static final int MAX_PEM = 16384;
    /** The CompositeSig secret key at rank 0 (ML-DSA-44 seed and Ed25519 seed). */
    public static final int SIGNING_KEY_LENGTH = 64;
    /** The CompositeSig public key. */
    public static final int PUBLIC_KEY_LENGTH = 1344;
    /** Largest host-list entry: port, length byte, 253-byte host. */
    public static final int MAX_HOST_ENTRY = 2 + 1 + Limits.MAX_HOST;
    /** Largest description in bytes: 4096 hosts of 253 bytes, full PEMs, the longest token, the signing key. */
    public static final int MAX_BYTES = HOSTS_OFFSET + Limits.MAX_SIZE * MAX_HOST_ENTRY + 3 * (4 + MAX_PEM)
            + 2 + Limits.MAX_TOKEN + 4 + SIGNING_KEY_LENGTH + PUBLIC_KEY_LENGTH;
    /** Longest line in hex digits (2214760); a longer line is refused before it is read whole. */
    public static final int MAX_LINE_HEX_DIGITS = 2 * MAX_BYTES;

    /** One entry of the host list, index = rank: where that rank listens. */
    public record HostEntry(String host, int port) {
        public HostEntry {
            Objects.requireNonNull(host, "host");
        }
    }

    public JobDescription {
        Objects.requireNonNull(jobId, "jobId");
        hosts = List.copyOf(hosts);
        Objects.requireNonNull(caCertPem, "caCertPem");
        Objects.requireNonNull(rankCertPem, "rankCertPem");
        Objects.requireNonNull(rankKeyPem, "rankKeyPem");
        token = token.clone();
        jobSigningKey = jobSigningKey.clone();
        jobPublicKey = jobPublicKey.clone();
    }

    /**
     * Reads one line from {@code stdin} and parses it. Exactly the line and its line feed are consumed (nothing
     * after it); a line longer than {@link #MAX_LINE_HEX_DIGITS} is refused at the first digit too many. The stream
     * is read a byte at a time, so pass a buffered one. Refusals are H1616; I/O errors pass through.
     */
    public static JobDescription parse(InputStream stdin) throws IOException {
        byte[] bytes = HexLine.read(stdin, MAX_LINE_HEX_DIGITS);
        try {
            return DescriptionDecoder.decode(bytes);
        } finally {
            Arrays.fill(bytes, (byte) 0);
        }
    }

    /** Parses a line given without its line feed (the caller wipes it). Refusals are H1616. */
    public static JobDescription parseLine(byte[] lineWithoutLf) {
        byte[] bytes = HexLine.decode(lineWithoutLf, MAX_LINE_HEX_DIGITS);
        try {
            return DescriptionDecoder.decode(bytes);
        } finally {
            Arrays.fill(bytes, (byte) 0);
        }
    }

    // Copies out, as CompositeSig.KeyPair's accessors do: a record hands out its arrays themselves, and a holder could
    // change a description or a key that was checked or signed.

    /** The raw join token (a copy). */
    @Override
    public byte[] token() {
        return token.clone();
    }

    /** The job signing key (a copy: wipe it after use), empty except at rank 0. */
    @Override
    public byte[] jobSigningKey() {
        return jobSigningKey.clone();
    }

    /** The job public key (a copy). */
    @Override
    public byte[] jobPublicKey() {
        return jobPublicKey.clone();
    }

    /** The decoded join token of this rank. */
    public JoinToken joinToken() {
        return JoinToken.read(ByteBuffer.wrap(token));
    }

    /** Where this rank listens. */
    public HostEntry ownHost() {
        return hosts.get(rank);
    }

    /** Whether this description carries the job signing key (rank 0). */
    public boolean holdsSigningKey() {
        return jobSigningKey.length != 0;
    }

    /** Zeroes the job signing key held by this record; the record is of no use for signing afterwards. */
    public void destroySecrets() {
        Arrays.fill(jobSigningKey, (byte) 0);
    }

    /** The first structural fault, in field order, with the parser's words; or {@code null}. */
    public String structuralFault() {
        return structuralFault(true);
    }

    /** As {@link #structuralFault()}, the host-list entries left out when {@code entries} is false. */
    private String structuralFault(boolean entries) {
        String fault = DescriptionRules.formatVersion(formatVersion);
        fault = fault != null ? fault : DescriptionRules.jobId(jobId);
        fault = fault != null ? fault : DescriptionRules.size(size);
        fault = fault != null ? fault : DescriptionRules.rank(rank, size);
        fault = fault != null ? fault : DescriptionRules.incarnation(incarnation);
        fault = fault != null ? fault : DescriptionRules.silenceMs(silenceMs);
        if (fault == null && hosts.size() != size) {
            fault = "host list has " + hosts.size() + " entries, size is " + size;
        }
        for (int i = 0; entries && fault == null && i < hosts.size(); i++) {
            HostEntry entry = hosts.get(i);
            fault = DescriptionRules.port(i, entry.port());
            fault = fault != null ? fault : DescriptionRules.hostLength(i, entry.host().length());
            fault = fault != null ? fault : DescriptionRules.host(i, entry.host());
        }
        fault = fault != null ? fault : pemFault("CA certificate PEM", caCertPem);
        fault = fault != null ? fault : pemFault("rank certificate PEM", rankCertPem);
        fault = fault != null ? fault : pemFault("rank key PEM", rankKeyPem);
        fault = fault != null ? fault : DescriptionRules.tokenLength(token.length);
        fault = fault != null ? fault : DescriptionRules.token(token, jobId, rank, size, incarnation, hosts);
        fault = fault != null ? fault : DescriptionRules.signingKeyLength(jobSigningKey.length, rank);
        return fault != null ? fault : DescriptionRules.publicKeyLength(jobPublicKey.length);
    }

    private static String pemFault(String field, String pem) {
        String fault = DescriptionRules.pemLength(field, pem.length());
        return fault != null ? fault : DescriptionRules.pemText(field, pem);
    }

    /** Bytes behind the digits; refuses (IllegalArgumentException) a description the parser refuses. */
    public int encodedLength() {
        refuseFault(true);
        int length = HOSTS_OFFSET;
        for (HostEntry entry : hosts) {
            length += 3 + entry.host().length();
        }
        return length + tailLength();
    }

    private void refuseFault(boolean entries) {
        String fault = structuralFault(entries);
        if (fault != null) {
            throw new IllegalArgumentException("refusing to encode a job description a rank refuses: " + fault);
        }
    }

    /** Bytes after the host list. */
    private int tailLength() {
        return 4 + caCertPem.length() + 4 + rankCertPem.length() + 4 + rankKeyPem.length()
                + 2 + token.length + 4 + jobSigningKey.length + PUBLIC_KEY_LENGTH;
    }

    /** Writes the bytes at {@code out}'s position and advances it; nothing is written when it refuses. */
    public void write(ByteBuffer out) {
        int length = encodedLength();
        if (out.isReadOnly()) {
            throw new ReadOnlyBufferException();
        }
        if (out.remaining() < length) {
            throw new BufferOverflowException();
        }
        writeChecked(out, length);
    }

    /**
     * {@link #write} once {@link #encodedLength} judged the description: the structural check walks the whole host
     * list, which at 4096 ranks is most of the launcher's encoding time, so it runs once per encoding, not twice.
     */
    private void writeChecked(ByteBuffer out, int length) {
        ByteBuffer b = out.slice(out.position(), length).order(ByteOrder.LITTLE_ENDIAN);
        writeHead(b);
        for (HostEntry entry : hosts) {
            b.putShort((short) entry.port());
            b.put((byte) entry.host().length());
            b.put(entry.host().getBytes(StandardCharsets.US_ASCII));
        }
        writeTail(b);
        out.position(out.position() + length);
    }

    /** The fixed fields before the host list, {@link #HOSTS_OFFSET} bytes, into a little-endian buffer. */
    private void writeHead(ByteBuffer b) {
        b.putShort((short) formatVersion);
        jobId.write(b, JOB_ID_OFFSET);
        b.position(SIZE_OFFSET);
        b.putInt(size);
        b.putInt(rank);
        b.putInt((int) incarnation);
        b.putInt((int) silenceMs);
    }

    /** The fields after the host list, {@link #tailLength()} bytes, into a little-endian buffer. */
    private void writeTail(ByteBuffer b) {
        putPem(b, caCertPem);
        putPem(b, rankCertPem);
        putPem(b, rankKeyPem);
        b.putShort((short) token.length);
        b.put(token);
        b.putInt(jobSigningKey.length);
        b.put(jobSigningKey);
        b.put(jobPublicKey);
    }

    private static void putPem(ByteBuffer b, String pem) {
        b.putInt(pem.length());
        // ASCII was checked, so each char is one byte; writing chars avoids an unwipeable copy of the key PEM.
        for (int i = 0; i < pem.length(); i++) {
            b.put((byte) pem.charAt(i));
        }
    }

    /** The bytes behind the digits as a fresh array; the caller wipes it. */
    public byte[] toBytes() {
        int length = encodedLength();
        byte[] out = new byte[length];
        writeChecked(ByteBuffer.wrap(out), length);
        return out;
    }

    /** The line as ASCII bytes, lower-case hex digits and a line feed, for the launcher to send and then wipe. */
    public byte[] toHexLineBytes() {
        // The whole check first, so that the first fault in field order is the one named.
        refuseFault(true);
        DescriptionLine line = toLine(EncodedHostList.of(hosts));
        try {
            return line.toBytes();
        } finally {
            line.wipe();
        }
    }

    /**
     * The line, with the host list's digits not copied but shared with every line made from {@code shared}, which
     * must hold this description's host list (IllegalArgumentException otherwise): the launcher encodes a job's list
     * once and sends it with every rank's own digits.
     */
    public DescriptionLine toLine(EncodedHostList shared) {
        if (shared.hosts() != hosts && !shared.hosts().equals(hosts)) {
            throw new IllegalArgumentException("the encoded host list is not this description's");
        }
        refuseFault(false);
        byte[] rest = new byte[HOSTS_OFFSET + tailLength()];
        ByteBuffer b = ByteBuffer.wrap(rest).order(ByteOrder.LITTLE_ENDIAN);
        writeHead(b);
        writeTail(b);
        try {
            byte[] head = new byte[2 * HOSTS_OFFSET];
            int at = 0;
            for (int i = 0; i < HOSTS_OFFSET; i++) {
                at = EncodedHostList.hex(head, at, rest[i]);
            }
            byte[] tail = new byte[2 * (rest.length - HOSTS_OFFSET) + 1];
            at = 0;
            for (int i = HOSTS_OFFSET; i < rest.length; i++) {
                at = EncodedHostList.hex(tail, at, rest[i]);
            }
            tail[at] = '\n';
            return new DescriptionLine(head, shared, tail);
        } finally {
            Arrays.fill(rest, (byte) 0);
        }
    }

    /** The line, lower-case hex digits and a line feed. Prefer {@link #toHexLineBytes()}, which can be wiped. */
    public String toHexLine() {
        byte[] line = toHexLineBytes();
        try {
            return new String(line, StandardCharsets.US_ASCII);
        } finally {
            Arrays.fill(line, (byte) 0);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof JobDescription d && formatVersion == d.formatVersion && jobId.equals(d.jobId)
                && size == d.size && rank == d.rank && incarnation == d.incarnation && silenceMs == d.silenceMs
                && hosts.equals(d.hosts) && caCertPem.equals(d.caCertPem) && rankCertPem.equals(d.rankCertPem)
                && rankKeyPem.equals(d.rankKeyPem)
                && Arrays.equals(token, d.token) && MessageDigest.isEqual(jobSigningKey, d.jobSigningKey)
                && Arrays.equals(jobPublicKey, d.jobPublicKey);
    }

    @Override
    public int hashCode() {
        // Secrets stay out of the hash.
        return Objects.hash(formatVersion, jobId, size, rank, incarnation, silenceMs, hosts, caCertPem, rankCertPem)
                * 31 + Arrays.hashCode(token);
    }

    /** Everything but the secrets, which show only as redacted. */
    @Override
    public String toString() {
        return "JobDescription[formatVersion=" + formatVersion + ", jobId=" + jobId + ", size=" + size
                + ", rank=" + rank + ", incarnation=" + incarnation + ", silenceMs=" + silenceMs
                + ", hosts=" + hosts.size() + " entries" + (rank >= 0 && rank < hosts.size()
                ? " (own " + HostSyntax.printable(hosts.get(rank).host()) + ":" + hosts.get(rank).port() + ")" : "")
                + ", caCertPem=" + caCertPem.length() + " chars, rankCertPem=" + rankCertPem.length() + " chars"
                + ", rankKeyPem=<redacted>, token=" + token.length + " bytes"
                + ", jobSigningKey=" + (jobSigningKey.length == 0 ? "none" : "<redacted>")
                + ", jobPublicKey=" + jobPublicKey.length + " bytes]";
    }
}
