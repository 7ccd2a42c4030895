package org.sperli.rankd.testjobs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.sperli.Communicator;
import org.sperli.SperliJob;

/** Prints its process's line "Max open files" of {@code /proc/self/limits}: the limit the rank runs with. */
public final class OpenFileLimitTestJob implements SperliJob {
    @Override
    public void run(Communicator comm, String[] args) {
        try {
            Files.readAllLines(Path.of("/proc/self/limits")).stream().filter(l -> l.startsWith("Max open files"))
                    .forEach(System.out::println);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
