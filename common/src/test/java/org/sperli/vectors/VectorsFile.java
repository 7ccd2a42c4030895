package org.sperli.vectors;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A reader of {@code docs/sperli-vectors.txt} (the format is described at the head of that file): records as ordered
 * key to value maps, with typed getters that fail naming the record, its line and the key.
 *
 * <p>The file is {@value #RELATIVE_PATH} in the working directory or its parent (a module's directory is the
 * working directory of its tests, and the repository root is its parent); nothing outside the repository is looked
 * at. The system property {@value #PATH_PROPERTY} names another file instead (for example a
 * copy with one digit changed, to see the test fail): {@code mvn ... test -Dsperli.vectors=/tmp/vectors-broken.txt}.
 *
 * <p>The reader is strict about what the format promises and nothing else: every non-comment line is
 * {@code key: value} or {@code key:}, keys are {@code [a-z0-9_]+} and unique in their record, a record starts with
 * {@code kind}, {@code name} and {@code why} in this order, and names are unique in the file. Values are judged only
 * when a getter asks for them. Each getter marks its key as used, so a test can find the fields it never looked at.
 */
public final class VectorsFile {
    /** The file, relative to the repository root. */
    public static final String RELATIVE_PATH = "docs/sperli-vectors.txt";
    /** System property that overrides where the file is. */
    public static final String PATH_PROPERTY = "sperli.vectors";

    private static final Pattern KEY = Pattern.compile("[a-z0-9_]+");
    private static final Pattern HEX = Pattern.compile("([0-9a-f]{2})*");
    private static final Pattern DECIMAL = Pattern.compile("[0-9]+");
    private static final List<String> LEADING_KEYS = List.of("kind", "name", "why");

    private final Path path;
    private final List<Record> records;

    private VectorsFile(Path path, List<Record> records) {
        this.path = path;
        this.records = Collections.unmodifiableList(records);
    }

    /** The file named by {@value #PATH_PROPERTY}, or else the one found walking up from the working directory. */
    public static Path locate() {
        String override = System.getProperty(PATH_PROPERTY);
        if (override != null && !override.isBlank()) {
            Path p = Paths.get(override).toAbsolutePath().normalize();
            if (!Files.isRegularFile(p)) {
                throw new IllegalStateException("-D" + PATH_PROPERTY + "=" + override + ": no such file " + p);
            }
            return p;
        }
        Path start = Paths.get(System.getProperty("user.dir")).toAbsolutePath().normalize();
        Path[] places = start.getParent() == null ? new Path[] {start} : new Path[] {start, start.getParent()};
        for (Path dir : places) {
            Path candidate = dir.resolve(RELATIVE_PATH);
            if (Files.isRegularFile(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("no " + RELATIVE_PATH + " in " + start + " or its parent (set -D"
                + PATH_PROPERTY + "=<file> to name it)");
    }

    /** Reads the file {@link #locate()} finds. */
    public static VectorsFile load() {
        return read(locate());
    }

    /** Reads and parses {@code path} (ASCII text, as the format requires). */
    public static VectorsFile read(Path path) {
        String text;
        try {
            text = Files.readString(path, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path, e);
        }
        return new VectorsFile(path, parse(path.toString(), text));
    }

    /** Parses {@code text}; {@code source} names it in messages. */
    public static VectorsFile parse(Path path, String text) {
        return new VectorsFile(path, parse(path.toString(), text));
    }

    private static List<Record> parse(String source, String text) {
        List<Record> out = new ArrayList<>();
        Map<String, Integer> names = new HashMap<>();
        String[] lines = text.split("\n", -1);
        Record current = null;
        for (int i = 0; i < lines.length; i++) {
            int lineNo = i + 1;
            String line = lines[i];
            if (line.endsWith("\r")) {
                throw new IllegalStateException(source + ":" + lineNo + ": CR LF line end; the file uses LF only");
            }
            if (line.startsWith("#")) {
                continue;
            }
            if (line.isEmpty()) {
                if (current != null) {
                    out.add(finish(source, current, names));
                    current = null;
                }
                continue;
            }
            int colon = line.indexOf(':');
            String key = colon < 0 ? line : line.substring(0, colon);
            if (colon < 0 || !KEY.matcher(key).matches()) {
                throw new IllegalStateException(source + ":" + lineNo + ": not \"key: value\" with a key of [a-z0-9_]+: "
                        + abbreviate(line));
            }
            String rest = line.substring(colon + 1);
            if (!rest.isEmpty() && !rest.startsWith(" ")) {
                throw new IllegalStateException(source + ":" + lineNo + ": no space after \"" + key + ":\"");
            }
            String value = rest.isEmpty() ? "" : rest.substring(1);
            if (current == null) {
                current = new Record(source, lineNo);
            }
            int index = current.fields.size();
            if (index < LEADING_KEYS.size() && !key.equals(LEADING_KEYS.get(index))) {
                throw new IllegalStateException(source + ":" + lineNo + ": a record starts with kind, name, why; line "
                        + (index + 1) + " of this record is \"" + key + "\"");
            }
            if (current.fields.put(key, value) != null) {
                throw new IllegalStateException(source + ":" + lineNo + ": key \"" + key + "\" twice in "
                        + current.describe());
            }
        }
        if (current != null) {
            out.add(finish(source, current, names));
        }
        return out;
    }

    private static Record finish(String source, Record r, Map<String, Integer> names) {
        if (r.fields.size() < LEADING_KEYS.size()) {
            throw new IllegalStateException(source + ":" + r.line + ": a record needs kind, name and why");
        }
        Integer before = names.putIfAbsent(r.name(), r.line);
        if (before != null) {
            throw new IllegalStateException(source + ":" + r.line + ": name \"" + r.name()
                    + "\" already used by the record at line " + before);
        }
        return r;
    }

    private static String abbreviate(String s) {
        return s.length() <= 80 ? s : s.substring(0, 80) + "... (" + s.length() + " characters)";
    }

    /** The file that was read. */
    public Path path() {
        return path;
    }

    /** The records in file order. */
    public List<Record> records() {
        return records;
    }

    /** One record: its keys in file order, their text, and which of them a getter has asked for. */
    public static final class Record {
        private final String source;
        private final int line;
        private final LinkedHashMap<String, String> fields = new LinkedHashMap<>();
        private final Set<String> used = new LinkedHashSet<>(LEADING_KEYS);

        private Record(String source, int line) {
            this.source = source;
            this.line = line;
        }

        public String kind() {
            return fields.get("kind");
        }

        public String name() {
            return fields.get("name");
        }

        /** The line of the file where the record starts (its "kind:" line). */
        public int line() {
            return line;
        }

        /** The keys in file order. */
        public Set<String> keys() {
            return Collections.unmodifiableSet(fields.keySet());
        }

        /** Keys and raw text, in file order. */
        public Map<String, String> fields() {
            return Collections.unmodifiableMap(fields);
        }

        public boolean has(String key) {
            return fields.containsKey(key);
        }

        /** The text of a text field (may be empty). */
        public String string(String key) {
            return raw(key);
        }

        /** The bytes of a hex field: lower-case digits, an even count, possibly none. */
        public byte[] hex(String key) {
            String v = raw(key);
            if (!HEX.matcher(v).matches()) {
                throw fail(key, "not lower-case hex of an even digit count: " + abbreviate(v));
            }
            byte[] out = new byte[v.length() / 2];
            for (int i = 0; i < out.length; i++) {
                out[i] = (byte) Integer.parseInt(v, 2 * i, 2 * i + 2, 16);
            }
            return out;
        }

        /** A decimal integer 0 .. 2^64 - 1, returned as the {@code long} with the same 64 bits. */
        public long integer(String key) {
            String v = raw(key);
            if (!DECIMAL.matcher(v).matches()) {
                throw fail(key, "not a decimal integer: " + abbreviate(v));
            }
            try {
                return Long.parseUnsignedLong(v);
            } catch (NumberFormatException e) {
                throw fail(key, "does not fit 64 bits: " + v);
            }
        }

        /** A decimal integer 0 .. 2147483647. */
        public int int32(String key) {
            long v = integer(key);
            if (v < 0 || v > Integer.MAX_VALUE) {
                throw fail(key, Long.toUnsignedString(v) + " does not fit a Java int");
            }
            return (int) v;
        }

        /** Marks keys as used without reading them (for keys a check covers through other keys). */
        public void markUsed(String... keys) {
            for (String k : keys) {
                raw(k);
            }
        }

        /** The keys no getter asked for, in file order. */
        public List<String> unusedKeys() {
            List<String> out = new ArrayList<>();
            for (String k : fields.keySet()) {
                if (!used.contains(k)) {
                    out.add(k);
                }
            }
            return out;
        }

        /** "record 'frame-hello' (file:line)", for messages. */
        public String describe() {
            return "record '" + (name() == null ? "?" : name()) + "' (" + source + ":" + line + ")";
        }

        private String raw(String key) {
            String v = fields.get(key);
            if (v == null) {
                throw fail(key, "missing; the record has " + fields.keySet());
            }
            used.add(key);
            return v;
        }

        private IllegalStateException fail(String key, String what) {
            return new IllegalStateException(describe() + ", key '" + key + "': " + what);
        }

        @Override
        public String toString() {
            return describe();
        }
    }
}
