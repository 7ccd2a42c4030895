package org.sperli.jobspec;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * One rank's description line as the launcher sends it: the hex digits of the rank's own fields around the job's host
 * list digits, which every line of the job shares ({@link EncodedHostList}) instead of holding a copy. At 4096 ranks a
 * copy per line was 4096 x 140 KB, half a gigabyte that the launcher allocated, kept alive until every rank was
 * started, and that its garbage collector copied; the rank's own digits are about 9 KB.
 *
 * <pre>
 *   part    what                                                  owner
 *   head    hex digits of the fields before the host list (34 B)  this line
 *   hosts   hex digits of the host list                           the job (shared, not secret)
 *   tail    hex digits of the fields after it, then a line feed   this line (the PEM key, the token: secret)
 * </pre>
 *
 * <p>{@link #wipe} overwrites the line's own digits; the shared host list holds nothing secret. Not safe for use by
 * several threads at once.
 */
public final class DescriptionLine {
    private final byte[] head;
    private final EncodedHostList hosts;
    private final byte[] tail;

    DescriptionLine(byte[] head, EncodedHostList hosts, byte[] tail) {
        this.head = head;
        this.hosts = hosts;
        this.tail = tail;
    }

    /** Characters of the line, its line feed included. */
    public int length() {
        return head.length + 2 * hosts.byteLength() + tail.length;
    }

    /** Writes the whole line, line feed included, to {@code out}; does not flush. */
    public void writeTo(OutputStream out) throws IOException {
        out.write(head);
        hosts.writeDigits(out);
        out.write(tail);
    }

    /** The whole line as one fresh array, for a caller that needs it in one piece; the caller wipes it. */
    public byte[] toBytes() {
        byte[] line = Arrays.copyOf(head, length());
        int at = hosts.copyDigits(line, head.length);
        System.arraycopy(tail, 0, line, at, tail.length);
        return line;
    }

    /** Overwrites the line's own digits with zeros: once its rank has it, nothing secret of it stays in memory. */
    public void wipe() {
        Arrays.fill(head, (byte) 0);
        Arrays.fill(tail, (byte) 0);
    }

    @Override
    public String toString() {
        return "DescriptionLine[" + length() + " characters, (redacted)]";
    }
}
