package org.sperli.crypto;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The IETF test vector of id-MLDSA44-Ed25519-SHA512 (draft-ietf-lamps-pq-composite-sigs-19), read from the test
 * class path: {@code org/sperli/crypto/compsig-mldsa44-ed25519.json}, whose source the README beside it names. A
 * missing resource is a failure, never a skip: a missing vector must not turn the interoperability check green.
 */
public record CompsigVectors(byte[] pk, byte[] sk, byte[] skPkcs8, byte[] s, byte[] sWithContext, byte[] m,
                             byte[] ctx) {
    /** The vector's resource name, relative to this class's package. */
    public static final String FILE = "compsig-mldsa44-ed25519.json";

    /** Reads the vector resource, failing with its name when it is not on the class path. */
    public static CompsigVectors load() {
        String json;
        try (InputStream in = CompsigVectors.class.getResourceAsStream(FILE)) {
            if (in == null) {
                throw new AssertionError("test resource org/sperli/crypto/" + FILE + " is not on the class path");
            }
            json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read test resource " + FILE, e);
        }
        return new CompsigVectors(field(json, "pk"), field(json, "sk"), field(json, "sk_pkcs8"), field(json, "s"),
                field(json, "sWithContext"), field(json, "m"), field(json, "ctx"));
    }

    /** The base64 value of the one {@code "name": "..."} member (the file has no nested duplicates). */
    private static byte[] field(String json, String name) {
        Matcher m = Pattern.compile("\"" + Pattern.quote(name) + "\"\\s*:\\s*\"([A-Za-z0-9+/=]*)\"").matcher(json);
        if (!m.find()) {
            throw new AssertionError("vector file has no base64 member " + name);
        }
        String value = m.group(1);
        if (m.find()) {
            throw new AssertionError("vector file has more than one member " + name);
        }
        return Base64.getDecoder().decode(value);
    }
}
