package org.sperli.control;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The call-home of a host agent under Slurm ({@code docs/sperli-agent.md} section 9): the one message an agent sends
 * on its TLS connection before the control stream, a MUNGE credential, and the payload that credential carries.
 */
public final class CallHome {
    /** The first word of every payload: names the protocol and its version. */
    public static final String PAYLOAD_TAG = "sperli-call-home-1";
    /** Longest credential accepted: a MUNGE credential of a payload of this size is well under 1 KiB. */
    public static final int MAX_CREDENTIAL = 4096;

    private CallHome() {
    }

    /**
     * The payload that binds a credential to one job, one step, one node, one launcher (its nonce) and one TLS key
     * (the SHA-256 of the agent's public key): a credential copied into another connection, another job or to
     * another node decodes to a payload that differs from what the launcher expects.
     */
    public record Payload(String job, String step, String node, String nonceHex, String keyHashHex) {
        public String text() {
            return PAYLOAD_TAG + " job=" + job + " step=" + step + " node=" + node + " nonce=" + nonceHex
                    + " key=" + keyHashHex;
        }
    }

    /** Writes {@code credential}: u32 little-endian length 1 .. {@link #MAX_CREDENTIAL}, then its ASCII bytes. */
    public static void writeCredential(OutputStream out, String credential) throws IOException {
        byte[] bytes = credential.getBytes(StandardCharsets.US_ASCII);
        if (bytes.length == 0 || bytes.length > MAX_CREDENTIAL) {
            throw new IOException("credential of " + bytes.length + " bytes, expected 1.." + MAX_CREDENTIAL);
        }
        out.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(bytes.length).array());
        out.write(bytes);
        out.flush();
    }

    /**
     * Reads one credential; the length is checked before anything is allocated for it, and only printable ASCII is
     * accepted (what {@code munge} writes).
     *
     * @throws IOException naming what is wrong, also when the stream ends first
     */
    public static String readCredential(InputStream in) throws IOException {
        DataInputStream data = new DataInputStream(in);
        byte[] head = new byte[4];
        try {
            data.readFully(head);
        } catch (EOFException e) {
            throw new IOException("no credential: the connection ended first", e);
        }
        long length = Integer.toUnsignedLong(ByteBuffer.wrap(head).order(ByteOrder.LITTLE_ENDIAN).getInt());
        if (length < 1 || length > MAX_CREDENTIAL) {
            throw new IOException("credential length " + length + " is not in 1.." + MAX_CREDENTIAL);
        }
        byte[] bytes = new byte[(int) length];
        try {
            data.readFully(bytes);
        } catch (EOFException e) {
            throw new IOException("credential cut: the connection ended after part of it", e);
        }
        for (byte b : bytes) {
            if (b < 0x21 || b > 0x7e) {
                throw new IOException("credential holds a byte that is not printable ASCII");
            }
        }
        return new String(bytes, StandardCharsets.US_ASCII);
    }
}
