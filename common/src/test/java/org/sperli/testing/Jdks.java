package org.sperli.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;

/** The JDKs a test may start besides its own: this machine has the default JDK 17 and a JDK 25 in /usr/lib/jvm. */
public final class Jdks {
    private Jdks() {
    }

    /**
     * The home of this JVM when its feature release is at least {@code feature}, else of the first such JDK in
     * /usr/lib/jvm (named {@code NAME-FEATURE-...}, as Debian's and Temurin's are), else empty: the test then says
     * what it skipped.
     */
    public static Optional<Path> atLeast(int feature) {
        if (Runtime.version().feature() >= feature) {
            return Optional.of(Path.of(System.getProperty("java.home")));
        }
        Path jvms = Path.of("/usr/lib/jvm");
        if (!Files.isDirectory(jvms)) {
            return Optional.empty();
        }
        try (Stream<Path> homes = Files.list(jvms)) {
            return homes.filter(h -> featureOf(h.getFileName().toString()) >= feature)
                    .filter(h -> Files.isExecutable(h.resolve("bin").resolve("java"))).sorted().findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static int featureOf(String name) {
        for (String part : name.split("-")) {
            if (part.matches("\\d{1,3}")) {
                return Integer.parseInt(part);
            }
        }
        return -1;
    }
}
