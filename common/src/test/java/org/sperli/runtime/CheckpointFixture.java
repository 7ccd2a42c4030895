package org.sperli.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.sperli.Checkpointable;
import org.sperli.ErrorCode;
import org.sperli.Restored;
import org.sperli.SperliException;
import org.sperli.checkpoint.EpochLayout;
import org.sperli.protocol.payload.Abort;

/** States, runs and file checks shared by the checkpoint and resume tests. */
final class CheckpointFixture {
    static final Duration LIMIT = Duration.ofSeconds(90);

    private CheckpointFixture() {
    }

    /**
     * The state of {@code rank} at {@code epoch}: deterministic bytes, of a length that differs by rank and epoch.
     * Rank 1's state is over 2 MiB, so its file travels in several 1 MiB chunks; rank 3's is empty in odd epochs.
     */
    static byte[] state(int rank, long epoch) {
        // Rank 1 spans several chunks; rank 3 is empty in odd epochs and spans two chunks in even ones, so that a
        // crash in the middle of its buddy copy to rank 0 (epoch 2 of a 4-rank job) falls between two chunks.
        int length = rank == 1 ? 2 * 1024 * 1024 + 1000 + (int) epoch
                : rank == 3 ? (epoch % 2 == 1 ? 0 : 1024 * 1024 + 500) : 100 + 17 * rank + (int) epoch;
        byte[] bytes = new byte[length];
        new SplittableRandom(rank * 1_000_003L + epoch).nextBytes(bytes);
        return bytes;
    }

    /** A Checkpointable writing {@code bytes} in pieces of several sizes, as a program would. */
    static Checkpointable writing(byte[] bytes) {
        return out -> {
            int at = 0;
            int piece = 1;
            while (at < bytes.length) {
                int n = Math.min(piece, bytes.length - at);
                if (n == 1) {
                    out.write(bytes[at]);
                } else {
                    out.write(bytes, at, n);
                }
                at += n;
                piece = piece * 7 + 3;
            }
        };
    }

    /** Checkpoints the states of epochs 1..n in a row; returns the epochs the calls gave. */
    static List<Long> checkpoints(RankRuntime rt, int n) {
        List<Long> epochs = new java.util.ArrayList<>();
        for (long e = 1; e <= n; e++) {
            epochs.add(rt.checkpoint(writing(state(rt.rank(), e))));
        }
        return epochs;
    }

    /** Runs {@code job} with {@code body} and returns the outcomes by rank. */
    static <T> List<TestJob.Outcome<T>> run(TestJob job, Function<RankRuntime, T> body) {
        return job.run(LIMIT, body);
    }

    /** Restarts {@code job} and returns every rank's restored state, failing the test on any rank's failure. */
    static List<Optional<Restored>> resume(TestJob restarted) {
        return run(restarted, RankRuntime::restored).stream().map(TestJob.Outcome::get).toList();
    }

    /** Asserts that every rank restored epoch {@code epoch} with its own state of that epoch. */
    static void assertRestored(List<Optional<Restored>> restored, long epoch) {
        for (int r = 0; r < restored.size(); r++) {
            Restored got = restored.get(r).orElseThrow(() -> new AssertionError("a rank restored nothing"));
            assertEquals(epoch, got.epoch(), "epoch at rank " + restored.indexOf(restored.get(r)));
            assertArrayEquals(state(r, epoch), got.state(), "state of rank " + r);
        }
    }

    /**
     * Asserts that the job ended: rank {@code decider}, which ended it, with {@code code}, and every other rank with
     * {@code othersCode}, the code the ABORT carries to them. A rank that receives an ABORT closes its connections at
     * once, so a third rank may see that close before the ABORT on its own link; it judges the close only after the
     * close grace (protocol 7.5), by when the decider's ABORT has arrived, so it reports the same code.
     */
    static void assertJobEnded(List<? extends TestJob.Outcome<?>> outcomes, int decider, ErrorCode code,
                               ErrorCode othersCode) {
        for (int r = 0; r < outcomes.size(); r++) {
            SperliException error = outcomes.get(r).error();
            assertTrue(error != null, "rank " + r + " did not fail");
            assertEquals(r == decider ? code : othersCode, error.code(), "rank " + r + ": " + error.getMessage()
                    + "; all: " + outcomes);
        }
    }

    /** As {@link #assertJobEnded} where the ABORT makes every rank report the decider's code. */
    static void assertEveryRankFails(List<? extends TestJob.Outcome<?>> outcomes, int decider, ErrorCode code) {
        assertJobEnded(outcomes, decider, code, code);
    }

    /** A hook that crashes {@code rank} at {@code step} of {@code epoch}: it ends the job as a lost peer would. */
    static void crashAt(RankRuntime rt, int rank, CheckpointDriver.Step step, long epoch) {
        TestJob.parts(rt).checkpoints().hooks((s, e) -> {
            if (rt.rank() == rank && s == step && e == epoch) {
                rt.abort(Abort.Reason.PEER_LOST, ErrorCode.H1613, "test: rank " + rank + " crashes at " + step
                        + " of epoch " + epoch, null);
                throw new SperliException(ErrorCode.H1613, "test crash at " + step);
            }
        });
    }

    /**
     * As {@link #crashAt}, and the crashing rank's file is made durable only after the crash: its {@code BEFORE_ACK}
     * waits (at most {@code boundMs}) until {@code step} has crashed, so that no CKPT_ACK of it can leave first. For a
     * step that may come before or after the ACK (the first chunk of a copy that starts beside the fsync), this makes
     * the order the test means certain instead of the machine's.
     */
    static void crashAtBeforeItsAck(RankRuntime rt, int rank, CheckpointDriver.Step step, long epoch, long boundMs) {
        CountDownLatch crashed = new CountDownLatch(1);
        TestJob.parts(rt).checkpoints().hooks((s, e) -> {
            if (rt.rank() != rank || e != epoch) {
                return;
            }
            if (s == CheckpointDriver.Step.BEFORE_ACK) {
                try {
                    crashed.await(boundMs, TimeUnit.MILLISECONDS);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                }
            } else if (s == step) {
                rt.abort(Abort.Reason.PEER_LOST, ErrorCode.H1613, "test: rank " + rank + " crashes at " + step
                        + " of epoch " + epoch, null);
                crashed.countDown();
                throw new SperliException(ErrorCode.H1613, "test crash at " + step);
            }
        });
    }

    /** The layout of rank {@code rank}'s checkpoints of {@code job}. */
    static EpochLayout layout(TestJob job, int rank) {
        return EpochLayout.of(job.checkpointDirs.get(rank), job.job);
    }

    /** The names in rank {@code rank}'s job directory, sorted. */
    static TreeSet<String> jobDirEntries(TestJob job, int rank) {
        try (Stream<Path> entries = Files.list(layout(job, rank).jobDir())) {
            return entries.map(p -> p.getFileName().toString()).collect(Collectors.toCollection(TreeSet::new));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every file under {@code root} whose name ends with ".tmp". */
    static List<Path> temporaryFiles(Path root) {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".tmp")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Flips the bits of the byte at {@code offset} ({@code -1}: the last byte) of {@code file}. */
    static void flipByte(Path file, long offset) {
        try {
            byte[] bytes = Files.readAllBytes(file);
            int at = (int) (offset < 0 ? bytes.length + offset : offset);
            bytes[at] ^= (byte) 0xff;
            Files.write(file, bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void delete(Path file) {
        try {
            Files.delete(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
