package org.sperli.rankd;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.sperli.jobspec.RankTmpdir;

/**
 * {@code java.io.tmpdir} from {@link RankTmpdir#VARIABLE}, set before anything reads it: Netty and ACCP read it once,
 * when they first unpack a native library, and rankd reads it where it makes its PEM directory ({@link PemDirectory};
 * the JDK's own temporary files, {@code Files.createTempDirectory} among them, keep the value the JVM started with, so
 * they cannot serve). A directory the agent named but that is not there is no reason to refuse the rank: it runs in
 * the JVM's own temporary directory and says so.
 */
final class GivenTmpdir {
    static final String PROPERTY = "java.io.tmpdir";

    private GivenTmpdir() {
    }

    /**
     * Sets {@link #PROPERTY} in {@code system} to the directory {@code env} names; returns a warning line when it
     * names something that is no directory, else null (also when the variable is absent or empty).
     */
    static String apply(Map<String, String> env, Properties system) {
        String value = env.get(RankTmpdir.VARIABLE);
        if (value == null || value.isEmpty()) {
            return null;
        }
        try {
            Path dir = Path.of(value).toAbsolutePath();
            if (Files.isDirectory(dir)) {
                system.setProperty(PROPERTY, dir.toString());
                return null;
            }
        } catch (InvalidPathException e) {
            // said below like any other name that is no directory
        }
        return Report.bounded("warning: " + RankTmpdir.VARIABLE + " names no directory (" + value + "); the rank"
                + " uses " + system.getProperty(PROPERTY));
    }
}
