package org.sperli.protocol.payload;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;
import org.sperli.protocol.Encodable;
import org.sperli.protocol.Wire;

/**
 * The CKPT_ACK payload (tables section 2): the SHA-256 of the whole rank file a rank just renamed into place.
 *
 * <pre>
 * off size field
 *   0   32 SHA-256 of the rank file (header and state)
 * </pre>
 *
 * <p>Any other length is H1610. The hash is copied in and out, so a record cannot change under its holder.
 */
public record CkptAck(byte[] sha256) implements Encodable {
    public static final int SHA256_OFFSET = 0;
    /** Bytes of the payload: 32. */
    public static final int LENGTH = SHA256_OFFSET + 32;

    public CkptAck {
        Objects.requireNonNull(sha256, "sha256");
        sha256 = sha256.clone();
    }

    public static CkptAck read(ByteBuffer payload) {
        ByteBuffer b = Wire.viewExactly(payload, LENGTH, "CKPT_ACK");
        byte[] hash = new byte[LENGTH];
        b.get(SHA256_OFFSET, hash);
        return new CkptAck(hash);
    }

    /** The hash (a copy). */
    @Override
    public byte[] sha256() {
        return sha256.clone();
    }

    @Override
    public int encodedLength() {
        Wire.requireEncodable(sha256.length != LENGTH ? "sha256 length=" + sha256.length + ", expected 32" : null);
        return LENGTH;
    }

    @Override
    public void write(ByteBuffer out) {
        Wire.claim(out, encodedLength()).put(SHA256_OFFSET, sha256);
    }

    // Written out because a record compares an array component by reference; a hash equals another by its bytes,
    // as a JobId does.
    @Override
    public boolean equals(Object o) {
        return o instanceof CkptAck a && Arrays.equals(sha256, a.sha256);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(sha256);
    }

    @Override
    public String toString() {
        return "CkptAck[sha256=" + HexFormat.of().formatHex(sha256) + "]";
    }
}
