package org.sperli.launcher.ssh;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The launcher's cache under the login's home ({@code ~/.cache/sperli}) as a test against a real sshd found it: the
 * files the test's jobs add there (staged jars, class-data archives) are removed after it, the ones that were there
 * stay.
 */
final class HomeCache {
    static final Path DIR = Path.of(System.getProperty("user.home"), ".cache", "sperli");

    private final Set<Path> before;

    private HomeCache(Set<Path> before) {
        this.before = before;
    }

    static HomeCache snapshot() throws IOException {
        return new HomeCache(files());
    }

    /** Removes every file added since the snapshot. */
    void removeAdded() throws IOException {
        for (Path p : files()) {
            if (!before.contains(p)) {
                Files.deleteIfExists(p);
            }
        }
    }

    private static Set<Path> files() throws IOException {
        Set<Path> files = new HashSet<>();
        if (Files.isDirectory(DIR)) {
            try (Stream<Path> all = Files.walk(DIR)) {
                all.filter(Files::isRegularFile).forEach(files::add);
            }
        }
        return files;
    }
}
