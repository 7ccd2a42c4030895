package org.sperli.rankd.testjobs;

import java.nio.file.Files;
import java.nio.file.Path;
import org.sperli.Communicator;
import org.sperli.SperliJob;

/** Says {@code waiting}, then returns once the file its first argument names exists (it fails after 60 s). */
public final class FileGatedTestJob implements SperliJob {
    private static final long BOUND_MS = 60_000;
    private static final long POLL_MS = 10;

    @Override
    public void run(Communicator comm, String[] args) throws InterruptedException {
        Path gate = Path.of(args[0]);
        System.out.println("waiting");
        System.out.flush();
        long deadline = System.nanoTime() + BOUND_MS * 1_000_000;
        while (!Files.exists(gate)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no " + gate + " within " + BOUND_MS + " ms");
            }
            Thread.sleep(POLL_MS);
        }
    }
}
