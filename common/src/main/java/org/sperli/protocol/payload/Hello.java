package org.sperli.protocol.payload;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;
import org.sperli.ErrorCode;
import org.sperli.protocol.Encodable;
import org.sperli.protocol.Limits;
import org.sperli.protocol.Wire;

/**
 * The HELLO payload (tables section 2), the first frame each side sends after the TLS handshake.
 *
 * <pre>
 * off size field
 *   0    4 version        1
 *   4    8 features       bit 0 (v1 base) must be set; bit 1 mesh collectives; the others ignored
 *  12    4 token length T must equal payload length - 16; at most 8192
 *  16    T join token     parsed and verified by org.sperli.identity, not here
 * </pre>
 *
 * <p>Every refusal of a field is H1614. A payload too short for the 16 fixed bytes is H1610: the tables make every
 * malformed payload H1610 except a bad token length or token, and the header check already refuses such a length as
 * H1610 before the payload is read.
 *
 * <p>The token is copied on the way in and out (at most 8 KiB), so a record cannot change under its holder.
 */
public record Hello(long version, long features, byte[] token) implements Encodable {
    public static final int VERSION_OFFSET = 0;
    public static final int FEATURES_OFFSET = VERSION_OFFSET + 4;
    public static final int TOKEN_LENGTH_OFFSET = FEATURES_OFFSET + 8;
    public static final int TOKEN_OFFSET = TOKEN_LENGTH_OFFSET + 4;
    /** Bytes before the token: 16. */
    public static final int FIXED_LENGTH = TOKEN_OFFSET;

    public Hello {
        Objects.requireNonNull(token, "token");
        token = token.clone();
    }

    /** The HELLO a v1 rank sends: version 1, feature bit 0, and its join token. */
    public static Hello v1(byte[] token) {
        return new Hello(Limits.VERSION, Limits.FEATURE_V1_BASE, token);
    }

    /**
     * The HELLO of a rank that also announces {@code extraFeatures} (such as
     * {@link Limits#FEATURE_MESH_COLLECTIVES}) besides the v1 base.
     */
    public static Hello announcing(long extraFeatures, byte[] token) {
        return new Hello(Limits.VERSION, Limits.FEATURE_V1_BASE | extraFeatures, token);
    }

    /** Decodes the whole payload; see the class comment for the codes. */
    public static Hello read(ByteBuffer payload) {
        ByteBuffer b = Wire.viewAtLeast(payload, FIXED_LENGTH, "HELLO");
        int length = b.limit();
        long version = Wire.u32(b, VERSION_OFFSET);
        long features = b.getLong(FEATURES_OFFSET);
        long tokenLength = Wire.u32(b, TOKEN_LENGTH_OFFSET);
        String fault = Wire.first(Wire.versionFault(version), featuresFault(features));
        if (fault == null && tokenLength != length - FIXED_LENGTH) {
            fault = "token length=" + tokenLength + ", expected payload length - 16 = " + (length - FIXED_LENGTH);
        }
        if (fault == null) {
            fault = tokenLengthFault(tokenLength);
        }
        if (fault != null) {
            throw Wire.refuse(ErrorCode.H1614, fault);
        }
        byte[] token = new byte[(int) tokenLength];
        b.get(TOKEN_OFFSET, token);
        return new Hello(version, features, token);
    }

    /** The token (a copy). */
    @Override
    public byte[] token() {
        return token.clone();
    }

    @Override
    public int encodedLength() {
        Wire.requireEncodable(Wire.first(
                Wire.u32Fault("version", version), Wire.versionFault(version), featuresFault(features),
                tokenLengthFault(token.length)));
        return FIXED_LENGTH + token.length;
    }

    @Override
    public void write(ByteBuffer out) {
        ByteBuffer b = Wire.claim(out, encodedLength());
        b.putInt(VERSION_OFFSET, (int) version);
        b.putLong(FEATURES_OFFSET, features);
        b.putInt(TOKEN_LENGTH_OFFSET, token.length);
        b.put(TOKEN_OFFSET, token);
    }

    private static String featuresFault(long features) {
        return (features & Limits.FEATURE_V1_BASE) == 0
                ? "features=0x" + Long.toHexString(features) + ", bit 0 (v1 base) must be set" : null;
    }

    private static String tokenLengthFault(long tokenLength) {
        return tokenLength > Limits.MAX_TOKEN
                ? "token length=" + tokenLength + ", maximum " + Limits.MAX_TOKEN : null;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Hello h && version == h.version && features == h.features && Arrays.equals(token, h.token);
    }

    @Override
    public int hashCode() {
        return 31 * Objects.hash(version, features) + Arrays.hashCode(token);
    }

    @Override
    public String toString() {
        return "Hello[version=" + version + ", features=0x" + Long.toHexString(features)
                + ", token=" + token.length + " bytes]";
    }
}
