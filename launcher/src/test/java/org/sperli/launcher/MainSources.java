package org.sperli.launcher;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The Java sources of the main code of {@code api}, {@code common}, {@code rankd} and {@code launcher}, as the
 * checks that read source text see them (from this module's directory); fails when they are not there, so that such
 * a check cannot pass by reading nothing.
 */
final class MainSources {
    static final List<String> MODULES = List.of("api", "common", "rankd", "launcher");

    /** One source file and the root of its module's main sources. */
    record Source(Path root, Path file) {
        /** The path below the root, e.g. {@code org/sperli/jvm/Clock.java}. */
        Path relative() {
            return root.relativize(file);
        }
    }

    private MainSources() {
    }

    static List<Source> all() throws IOException {
        List<Source> sources = new ArrayList<>();
        for (String module : MODULES) {
            Path root = Path.of("..", module, "src", "main", "java");
            assertTrue(Files.isDirectory(root), root + " is missing: the check would read nothing");
            try (Stream<Path> walk = Files.walk(root)) {
                walk.filter(p -> p.toString().endsWith(".java")).sorted().forEach(p -> sources.add(new Source(root, p)));
            }
        }
        assertTrue(sources.size() > 100, "only " + sources.size() + " source files found");
        return sources;
    }
}
