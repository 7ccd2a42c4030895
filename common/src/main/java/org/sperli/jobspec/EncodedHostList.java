package org.sperli.jobspec;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.sperli.jobspec.JobDescription.HostEntry;

/**
 * A job's host list, checked and written out as the hex digits of a description once: the launcher puts the same list
 * into every rank's description, and at 4096 ranks checking and encoding it per description was 4096 x 4096 entries,
 * most of the launcher's encoding work. Every {@link DescriptionLine} of the job refers to these digits.
 *
 * <p>Each entry is, as in the description's table: port (u16 little endian), host length (u8), host (ASCII).
 */
public final class EncodedHostList {
    private static final byte[] HEX_DIGITS = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    private final List<HostEntry> hosts;
    private final byte[] digits;

    private EncodedHostList(List<HostEntry> hosts, byte[] digits) {
        this.hosts = hosts;
        this.digits = digits;
    }

    /**
     * The list checked entry by entry with the description's own rules, then encoded. Refuses
     * (IllegalArgumentException) the first bad entry with the words a rank would use for it.
     */
    public static EncodedHostList of(List<HostEntry> hosts) {
        List<HostEntry> list = List.copyOf(hosts);
        int bytes = 0;
        for (int i = 0; i < list.size(); i++) {
            HostEntry entry = list.get(i);
            String fault = DescriptionRules.port(i, entry.port());
            fault = fault != null ? fault : DescriptionRules.hostLength(i, entry.host().length());
            fault = fault != null ? fault : DescriptionRules.host(i, entry.host());
            if (fault != null) {
                throw new IllegalArgumentException("refusing to encode a job description a rank refuses: " + fault);
            }
            bytes += 3 + entry.host().length();
        }
        byte[] digits = new byte[2 * bytes];
        int at = 0;
        for (HostEntry entry : list) {
            at = hex(digits, at, entry.port() & 0xff);
            at = hex(digits, at, entry.port() >>> 8);
            at = hex(digits, at, entry.host().length());
            for (int c = 0; c < entry.host().length(); c++) {
                // The host syntax allows ASCII only, so each char is its byte.
                at = hex(digits, at, entry.host().charAt(c));
            }
        }
        return new EncodedHostList(list, digits);
    }

    /** The entries, index = rank. */
    public List<HostEntry> hosts() {
        return hosts;
    }

    /** Bytes of the encoded list (half its digits). */
    int byteLength() {
        return digits.length / 2;
    }

    /** Writes the digits to {@code out}. */
    void writeDigits(OutputStream out) throws IOException {
        out.write(digits);
    }

    /** Copies the digits into {@code line} at {@code offset}; returns the offset after them. */
    int copyDigits(byte[] line, int offset) {
        System.arraycopy(digits, 0, line, offset, digits.length);
        return offset + digits.length;
    }

    /** Writes the two lower-case hex digits of {@code b} (0..255) at {@code at}; returns the offset after them. */
    static int hex(byte[] out, int at, int b) {
        out[at] = HEX_DIGITS[(b >> 4) & 0xf];
        out[at + 1] = HEX_DIGITS[b & 0xf];
        return at + 2;
    }
}
