import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Expands the module's Java templates into sources, at generate-sources (see the module's pom):
 * {@code java src/build/ExpandTemplates.java TEMPLATE_DIR OUTPUT_DIR}, with the JDK alone, so that the module keeps
 * no dependency, not even a build-time one of its own.
 *
 * <p>Why templates: the reduce loops of {@code org.sperli.collective} are the same bodies at two element widths (f32
 * and f64, i32 and i64). Java generics do not reach primitives, and one loop over a width object and an operation
 * object is compiled once for all its callers: once it has served more than two operations, the call to the operation
 * is no longer inlined and costs a call per element (measured: after f64 sum and i64 sum, f32 max on heap buffers ran
 * 7 to 8 times slower than its own loop, on JDK 17 and 25). So each width gets its own class, and the body is written
 * once, as a template.
 *
 * <p>A template is a Java source under TEMPLATE_DIR, in its package's directory. Each line starting with
 * {@code //$ } names one class to make from it and its values: {@code //$ F32Kernels x=float width=4}. In the
 * output, {@code $Class$} is the class name and {@code $key$} the variant's value; the variant lines are left out and
 * a first line says where the file came from. A token without a value, a value no token uses, and a template without
 * variants stop the build with the template, the line and the token. A file whose text would not change is not
 * written again (the compiler then has nothing to redo); a {@code .java} file under OUTPUT_DIR that no template makes
 * any more is removed.
 */
final class ExpandTemplates {
    private static final String VARIANT_PREFIX = "//$ ";
    private static final Pattern TOKEN = Pattern.compile("\\$([A-Za-z]+)\\$");

    private ExpandTemplates() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            throw new IllegalArgumentException("usage: java ExpandTemplates.java TEMPLATE_DIR OUTPUT_DIR");
        }
        Path templates = Path.of(args[0]);
        Path output = Path.of(args[1]);
        Set<Path> made = new HashSet<>();
        for (Path template : javaFiles(templates)) {
            Path packageDir = output.resolve(templates.relativize(template.getParent()));
            Path relative = templates.getFileName().resolve(templates.relativize(template));
            String origin = relative.toString().replace('\\', '/');
            for (Map.Entry<String, String> generated : expand(template, origin).entrySet()) {
                Path file = packageDir.resolve(generated.getKey() + ".java");
                writeIfChanged(file, generated.getValue());
                made.add(file);
            }
        }
        for (Path stale : javaFiles(output)) {
            if (!made.contains(stale)) {
                Files.delete(stale);
            }
        }
    }

    /** The text of every class the template makes, by class name, in the order of its variant lines. */
    private static Map<String, String> expand(Path template, String origin) throws IOException {
        List<String> lines = Files.readAllLines(template, StandardCharsets.UTF_8);
        Map<String, Map<String, String>> variants = new LinkedHashMap<>();
        for (String line : lines) {
            if (line.startsWith(VARIANT_PREFIX)) {
                Map<String, String> values = variant(template, line.substring(VARIANT_PREFIX.length()));
                variants.put(values.get("Class"), values);
            }
        }
        if (variants.isEmpty()) {
            throw new IllegalStateException(template + ": no variant line, " + VARIANT_PREFIX + "ClassName key=value");
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (Map<String, String> values : variants.values()) {
            StringBuilder text = new StringBuilder("// Generated from ").append(origin)
                    .append("; edit the template, not this file.\n");
            Set<String> unused = new HashSet<>(values.keySet());
            unused.remove("Class");
            for (int i = 0; i < lines.size(); i++) {
                if (!lines.get(i).startsWith(VARIANT_PREFIX)) {
                    text.append(substitute(lines.get(i), values, unused, template + ":" + (i + 1))).append('\n');
                }
            }
            if (!unused.isEmpty()) {
                throw new IllegalStateException(template + ": " + values.get("Class") + " sets " + unused
                        + ", which no $token$ uses");
            }
            out.put(values.get("Class"), text.toString());
        }
        return out;
    }

    /** "F32Kernels x=float width=4" as Class=F32Kernels, x=float, width=4. */
    private static Map<String, String> variant(Path template, String line) {
        String[] words = line.trim().split("\\s+");
        Map<String, String> values = new LinkedHashMap<>();
        values.put("Class", words[0]);
        for (int i = 1; i < words.length; i++) {
            int eq = words[i].indexOf('=');
            if (eq <= 0) {
                throw new IllegalStateException(template + ": variant " + words[0] + ": not key=value: " + words[i]);
            }
            values.put(words[i].substring(0, eq), words[i].substring(eq + 1));
        }
        return values;
    }

    private static String substitute(String line, Map<String, String> values, Set<String> unused, String where) {
        Matcher m = TOKEN.matcher(line);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = values.get(m.group(1));
            if (value == null) {
                throw new IllegalStateException(where + ": " + values.get("Class") + " has no value for " + m.group());
            }
            unused.remove(m.group(1));
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        return m.appendTail(out).toString();
    }

    private static void writeIfChanged(Path file, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        if (Files.exists(file) && Arrays.equals(Files.readAllBytes(file), bytes)) {
            return;
        }
        Files.createDirectories(file.getParent());
        Files.write(file, bytes);
    }

    private static List<Path> javaFiles(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(f -> f.toString().endsWith(".java")).sorted().toList();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
