package org.sperli.jobspec;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.sperli.ErrorCode;
import org.sperli.SperliException;

/**
 * The refused-host policy (transport and security; tables section 9), the same for the launcher and the rank: hosts
 * that never run a rank, even when listed.
 *
 * <p>Sources, all of which hold at once: the built-in reserved names {@code host-a.invalid} and
 * {@code host-b.invalid}; the environment variable {@value #ENV_VARIABLE} (names separated by commas, blanks or line
 * ends); and the operator's deny file ({@code --deny-hosts FILE}: one name a line, blank lines and {@code #} comments
 * allowed). An empty or missing deny file leaves the other sources in force; a missing one is reported to the warnings
 * sink. A deny file that exists but cannot be read is an error: refusing nothing the operator meant to refuse would
 * fail open.
 *
 * <p>Matching: names and hosts are compared in ASCII lower case with one trailing dot removed. A name refuses itself
 * and every domain below it (the host equals it or ends with "." + name); a dotted IPv4 entry refuses exactly that
 * address, and an address is refused only by an equal entry (an address has no domains below it).
 */
public final class RefusedHostPolicy {
    /** The environment variable of refused names. */
    public static final String ENV_VARIABLE = "SPERLI_REFUSED_HOSTS";
    /** The reserved names, refused everywhere; they name no machine. */
    public static final List<String> BUILT_IN = List.of("host-a.invalid", "host-b.invalid");

    private static final String BUILT_IN_SOURCE = "the built-in reserved names";
    private static final String SEPARATORS = "[,\\s]+";
    private static final int MAX_SHOWN = 80;
    /** Largest deny file read: far above any real list, small enough to read whole. */
    static final int MAX_DENY_FILE_BYTES = 1 << 20;

    /** Refused names (not addresses), normalised, each with the source that named it first. */
    private final Map<String, String> names;
    /** Refused IPv4 addresses, each with the source that named it first. */
    private final Map<String, String> addresses;

    private RefusedHostPolicy(Map<String, String> names, Map<String, String> addresses) {
        this.names = names;
        this.addresses = addresses;
    }

    /**
     * The policy of this process: the built-in names, {@value #ENV_VARIABLE} from {@code env} (unset: nothing from
     * it), and the deny file when {@code denyFileOrNull} is given. Warnings (a missing deny file, an entry that cannot
     * match any host) go to {@code warnings}, never to a stream of this class's choosing.
     *
     * @throws UncheckedIOException when the deny file exists but cannot be read
     */
    public static RefusedHostPolicy fromEnvironment(Map<String, String> env, Path denyFileOrNull,
                                                    Consumer<String> warnings) {
        Builder builder = new Builder(warnings);
        for (String name : BUILT_IN) {
            builder.add(name, BUILT_IN_SOURCE);
        }
        String variable = env.get(ENV_VARIABLE);
        if (variable != null) {
            for (String name : variable.split(SEPARATORS)) {
                builder.add(name, ENV_VARIABLE);
            }
        }
        if (denyFileOrNull != null) {
            builder.addDenyFile(denyFileOrNull);
        }
        return new RefusedHostPolicy(Collections.unmodifiableMap(builder.names),
                Collections.unmodifiableMap(builder.addresses));
    }

    /**
     * Why {@code host} is refused, naming the entry and its source (for example
     * {@code host 'a.example.com' is below 'example.com' from SPERLI_REFUSED_HOSTS}), or empty when it is not.
     */
    public Optional<String> refusal(String host) {
        if (host == null) {
            return Optional.empty();
        }
        String normal = HostSyntax.normalize(host);
        if (normal.isEmpty()) {
            return Optional.empty();
        }
        if (HostSyntax.isIpv4(normal)) {
            String source = addresses.get(normal);
            return source == null ? Optional.empty()
                    : Optional.of("host " + shown(host) + " is the address '" + normal + "' from " + source);
        }
        // The host itself, then every domain above it: a.b.c, b.c, c.
        for (int start = 0; start >= 0; start = nextLabel(normal, start)) {
            String suffix = normal.substring(start);
            String source = names.get(suffix);
            if (source != null) {
                String relation = start == 0 ? " is '" : " is below '";
                return Optional.of("host " + shown(host) + relation + suffix + "' from " + source);
            }
        }
        return Optional.empty();
    }

    /** Refuses {@code host} with H1615 when the policy refuses it. */
    public void check(String host) {
        Optional<String> reason = refusal(host);
        if (reason.isPresent()) {
            throw new SperliException(ErrorCode.H1615, reason.get());
        }
    }

    /** Every refused name and address, normalised, in the order first named. */
    public List<String> entries() {
        List<String> all = new ArrayList<>(names.keySet());
        all.addAll(addresses.keySet());
        return List.copyOf(all);
    }

    @Override
    public String toString() {
        return "RefusedHostPolicy[" + names.size() + " names, " + addresses.size() + " addresses]";
    }

    /** Start of the label after the one at {@code start}, or -1 after the last label. */
    private static int nextLabel(String host, int start) {
        int dot = host.indexOf('.', start);
        return dot < 0 || dot == host.length() - 1 ? -1 : dot + 1;
    }

    /** Text from the environment or a file for a message: printable ASCII only, bounded. */
    private static String shown(String s) {
        StringBuilder out = new StringBuilder("'");
        for (int i = 0; i < s.length() && i < MAX_SHOWN; i++) {
            char c = s.charAt(i);
            out.append(c >= 0x20 && c < 0x7f ? c : '?');
        }
        return out.append(s.length() > MAX_SHOWN ? "...'" : "'").toString();
    }

    /** Collects entries; the first source to name an entry is the one reported. */
    private static final class Builder {
        private final Map<String, String> names = new LinkedHashMap<>();
        private final Map<String, String> addresses = new LinkedHashMap<>();
        private final Consumer<String> warnings;

        Builder(Consumer<String> warnings) {
            this.warnings = warnings;
        }

        void add(String raw, String source) {
            String entry = HostSyntax.normalize(raw.strip());
            if (entry.isEmpty()) {
                return;
            }
            if (HostSyntax.isIpv4(entry)) {
                addresses.putIfAbsent(entry, source);
                return;
            }
            String fault = HostSyntax.check(entry);
            if (fault != null) {
                // Kept anyway (it can only refuse more), but the operator should know it will never match.
                warnings.accept("refused-host entry " + shown(raw) + " from " + source
                        + " is not a valid host name and matches no host: " + fault);
            }
            names.putIfAbsent(entry, source);
        }

        private static UncheckedIOException unusable(String message) {
            return new UncheckedIOException(message, new IOException(message));
        }

        /**
         * Only a regular file is opened (a FIFO would block until a writer came, a device might never end), at most
         * {@link RefusedHostPolicy#MAX_DENY_FILE_BYTES} + 1 bytes are read whatever the file claims, and text that is
         * not UTF-8 is
         * refused as such.
         */
        void addDenyFile(Path file) {
            String what = "deny file " + file;
            if (Files.isDirectory(file)) {
                throw unusable(what + " is a directory, expected a regular file");
            }
            if (Files.exists(file) && !Files.isRegularFile(file)) {
                throw unusable(what + " is not a regular file (a FIFO, socket or device), expected a regular file");
            }
            byte[] bytes;
            try (InputStream in = Files.newInputStream(file)) {
                bytes = in.readNBytes(MAX_DENY_FILE_BYTES + 1);
            } catch (NoSuchFileException e) {
                warnings.accept(what + " does not exist; only " + ENV_VARIABLE + " and the built-in names are refused");
                return;
            } catch (IOException e) {
                throw new UncheckedIOException(what + " cannot be read: " + e.getMessage(), e);
            }
            if (bytes.length > MAX_DENY_FILE_BYTES) {
                throw unusable(what + " is larger than " + MAX_DENY_FILE_BYTES + " bytes");
            }
            List<String> lines;
            try {
                lines = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString().lines().toList();
            } catch (CharacterCodingException e) {
                throw unusable(what + " is not UTF-8 text (a binary file?)");
            }
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                int hash = line.indexOf('#');
                String content = hash < 0 ? line : line.substring(0, hash);
                String source = "deny file " + file + " line " + (i + 1);
                for (String name : content.strip().split(SEPARATORS)) {
                    add(name, source);
                }
            }
        }
    }
}
