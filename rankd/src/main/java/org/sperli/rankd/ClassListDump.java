package org.sperli.rankd;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.util.List;
import org.sperli.crypto.AccpLibrary;
import org.sperli.jvm.ArchiveDump;

/**
 * A static class-data archive made from this JVM's class list ({@code -XX:DumpLoadedClassList}) by a child JVM of the
 * same Java and class path ({@code -Xshare:dump}, a few seconds), for Javas before 25, on which a rank cannot safely
 * record for a dynamic archive (see {@link RankArchive}). The launcher makes its local ranks' archive the same way.
 */
final class ClassListDump {
    private ClassListDump() {
    }

    /** Writes the archive to {@code partial}, the filtered list to {@code filtered} (the caller removes both). */
    static void run(Path classList, Path filtered, Path partial) throws IOException {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // The module options of the ranks: a JVM whose options differ uses an archive only in part.
        try {
            ArchiveDump.dumpStatic(java, List.of(AccpLibrary.NATIVE_ACCESS), List.of(classList), filtered, partial,
                    System.getProperty("java.class.path"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted");
        }
    }
}
