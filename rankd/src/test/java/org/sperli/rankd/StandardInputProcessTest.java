package org.sperli.rankd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sperli.rankd.testjobs.FileGatedTestJob;

/**
 * A rank's standard input after its description line, over a real pipe: bytes there carry no meaning and are dropped
 * (protocol section 13.1), and only its end says that the launcher is gone. A write of more than a pipe holds returns
 * only once the rank has read nearly all of it, so each such write shows that the rank went on reading.
 */
@Timeout(90)
class StandardInputProcessTest {
    private static final Duration START_BOUND = Duration.ofSeconds(60);
    /** Far more than a pipe holds (64 KiB on Linux). */
    private static final int MANY_BYTES = 1 << 20;

    @TempDir
    Path dir;

    @Test
    void bytesAfterTheLineAreDroppedAndTheRankCompletes() throws Exception {
        Path gate = dir.resolve("gate");
        try (RankProcesses ranks = new RankProcesses(dir)) {
            RankProcess rank = startedWithAByteAfterItsLine(ranks, gate);
            write(rank, MANY_BYTES);
            Files.createFile(gate);
            assertEquals(0, rank.exitStatus(START_BOUND), rank.stderr());
            assertFalse(rank.stderr().contains("stopped"), rank.stderr());
        }
    }

    @Test
    void theEndOfStandardInputAfterDroppedBytesStillStopsTheRankWithEight() throws Exception {
        try (RankProcesses ranks = new RankProcesses(dir)) {
            RankProcess rank = startedWithAByteAfterItsLine(ranks, dir.resolve("gate"));
            write(rank, MANY_BYTES);
            rank.closeInput();
            assertEquals(8, rank.exitStatus(Duration.ofSeconds(2)), rank.stderr());
            assertEquals("stopped: its launcher is gone (standard input closed) (ABORT reason 8 to every connected"
                    + " peer)", rank.lastStderrLine(), rank.stderr());
            assertEquals(List.of(), RankProcesses.tmpEntries(rank));
        }
    }

    /**
     * A rank of a job of one, fed its line and one byte more in the same write, and running: its program waits for
     * {@code gate}.
     */
    private RankProcess startedWithAByteAfterItsLine(RankProcesses ranks, Path gate) throws Exception {
        Path jar = TestJars.jobJar(dir, FileGatedTestJob.class);
        RankProcess rank = RankProcess.start(dir, "rank-0", List.of(jar.toString(), gate.toString()), Map.of());
        ranks.ranks.add(rank);
        byte[] line = new LocalJob(1, 2000).line(0);
        byte[] withByte = Arrays.copyOf(line, line.length + 1);
        withByte[line.length] = 'x';
        Arrays.fill(line, (byte) 0);
        rank.feed(withByte);
        long deadline = System.nanoTime() + START_BOUND.toNanos();
        while (!RankProcesses.printed(rank, "waiting")) {
            if (!rank.process.isAlive() || System.nanoTime() > deadline) {
                throw new AssertionError("the rank is not running its program; alive=" + rank.process.isAlive()
                        + " stderr:\n" + rank.stderr());
            }
            Thread.sleep(20);
        }
        return rank;
    }

    /** Writes {@code count} bytes to the rank's standard input; fails when the rank does not take them in time. */
    private static void write(RankProcess rank, int count) throws Exception {
        OutputStream in = rank.process.getOutputStream();
        CompletableFuture<Void> written = CompletableFuture.runAsync(() -> {
            try {
                in.write(new byte[count]);
                in.flush();
            } catch (IOException e) {
                throw new IllegalStateException("the rank stopped reading its standard input", e);
            }
        });
        try {
            written.get(START_BOUND.toSeconds(), TimeUnit.SECONDS);
        } finally {
            if (!written.isDone()) {
                // A rank that stopped reading but lives: killing it ends the blocked write.
                rank.process.destroyForcibly();
            }
        }
    }
}
