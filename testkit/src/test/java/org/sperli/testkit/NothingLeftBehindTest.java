package org.sperli.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run leaves nothing behind: no thread, no open socket or file (the process's descriptors, which hold every port the
 * ranks listened at or dialed from), nothing new in the temporary directory, and the streams as they were. Runs that
 * complete, fail, lose a killed rank and restart, or meet a full disk are all checked.
 */
class NothingLeftBehindTest {
    private static final Path FDS = Path.of("/proc/self/fd");
    private static final Path TMP = Path.of(System.getProperty("java.io.tmpdir"));

    @Test
    void runsThatCompleteOrFailLeaveNoThreadDescriptorOrTemporaryFile(@TempDir Path checkpoints) throws Exception {
        // Once first: classes, the JIT's threads and whatever the JVM makes once are not the run's.
        SperliTestKit.job(KitJobs.SumJob.class).ranks(4).quiet().run().assertCompleted();
        Set<Thread> threads = Thread.getAllStackTraces().keySet();
        Set<String> descriptors = names(FDS);
        Set<String> temporary = names(TMP);
        var out = System.out;
        var err = System.err;

        SperliTestKit.job(KitJobs.SumJob.class).ranks(8).quiet().run().assertCompleted();
        assertFalse(SperliTestKit.job(KitJobs.ThrowingJob.class).ranks(4).quiet().run().completed());
        SperliTestKit.job(KitJobs.CountingJob.class).ranks(3).args("8", "2").checkpointDir(checkpoints)
                .killAtCheckpoint(2, 2).restartMax(1).quiet().run().assertCompleted();
        assertFalse(SperliTestKit.job(KitJobs.CountingJob.class).ranks(2).args("8", "2")
                .checkpointDir(checkpoints.resolve("full")).fillCheckpointDisk(100).quiet().run().completed());

        assertEquals(List.of(), eventually(() -> Thread.getAllStackTraces().keySet().stream()
                .filter(t -> !threads.contains(t) && t.isAlive()).map(Thread::getName).sorted().toList()),
                "threads the runs left");
        assertEquals(Set.of(), eventually(() -> difference(names(FDS), descriptors)), "descriptors the runs left");
        assertEquals(temporary, names(TMP), "the temporary directory");
        assertEquals(out, System.out);
        assertEquals(err, System.err);
    }

    private static <T> T eventually(Supplier<T> value) throws InterruptedException {
        T last = value.get();
        for (int i = 0; i < 50 && !(last instanceof java.util.Collection<?> c && c.isEmpty()); i++) {
            Thread.sleep(100);
            last = value.get();
        }
        return last;
    }

    /** Descriptors open now and not before (a descriptor's number may be reused: what it points at counts). */
    private static Set<String> difference(Set<String> now, Set<String> before) {
        return now.stream().filter(n -> !before.contains(n)).collect(Collectors.toCollection(TreeSet::new));
    }

    private static Set<String> names(Path dir) {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.map(p -> p.getFileName() + (dir.equals(FDS) ? " -> " + target(p) : ""))
                    .collect(Collectors.toCollection(TreeSet::new));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String target(Path fd) {
        try {
            return Files.readSymbolicLink(fd).toString();
        } catch (IOException gone) {
            return "gone";
        }
    }
}
