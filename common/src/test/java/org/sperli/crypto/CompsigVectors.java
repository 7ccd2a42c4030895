package org.sperli.crypto;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The IETF test vector of id-MLDSA44-Ed25519-SHA512 from {@code shared/vectors/compsig-mldsa44-ed25519.json}, found
 * by walking up from the working directory to the directory that holds {@code shared/vectors} (the repository sits
 * beside a copy of {@code shared/}, locally and in CI). Not finding it is a failure, never a skip: a missing vector
 * must not turn the interoperability check green.
 */
public record CompsigVectors(byte[] pk, byte[] sk, byte[] skPkcs8, byte[] s, byte[] sWithContext, byte[] m,
                             byte[] ctx) {
    /** The vector file name inside {@code shared/vectors}. */
    public static final String FILE = "compsig-mldsa44-ed25519.json";

    /** Reads the vector file, failing with the searched paths when it cannot be found. */
    public static CompsigVectors load() {
        Path file = locate();
        String json;
        try {
            json = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        return new CompsigVectors(field(json, "pk"), field(json, "sk"), field(json, "sk_pkcs8"), field(json, "s"),
                field(json, "sWithContext"), field(json, "m"), field(json, "ctx"));
    }

    /** {@code shared/vectors/FILE} in the working directory or the nearest ancestor that has it. */
    public static Path locate() {
        Path start = Path.of("").toAbsolutePath();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("shared").resolve("vectors").resolve(FILE);
            if (Files.isRegularFile(candidate)) {
                return candidate;
            }
        }
        throw new AssertionError("shared/vectors/" + FILE + " not found in " + start + " or any parent directory;"
                + " the repository must sit beside a copy of shared/");
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
