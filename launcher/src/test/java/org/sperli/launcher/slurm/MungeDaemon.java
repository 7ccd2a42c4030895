package org.sperli.launcher.slurm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The MUNGE daemon of the Slurm tests: the one that answers on the default socket already, or one started here with a
 * key generated for it (in the test's directory, owner-only, removed with it) and stopped by its PID. Under tini, when
 * installed, as a subreaper: the daemons' orphans are reaped at once (the shared notes' pitfall 10).
 */
final class MungeDaemon implements AutoCloseable {
    static final Path SOCKET_DIR = Path.of("/run/munge");

    private final Process process;
    private final boolean madeSocketDir;

    private MungeDaemon(Process process, boolean madeSocketDir) {
        this.process = process;
        this.madeSocketDir = madeSocketDir;
    }

    /** Why MUNGE cannot be had here, or null when {@link #start} can try. */
    static String missing() {
        for (String program : List.of("munged", "munge", "unmunge")) {
            if (!SlurmCluster.onPath(program)) {
                return program + " is not installed (apt-get install munge)";
            }
        }
        return null;
    }

    /** A daemon answering on the default socket: the running one, or one started with a key made in {@code dir}. */
    static MungeDaemon start(Path dir) throws IOException {
        if (answers()) {
            return new MungeDaemon(null, false);
        }
        boolean made = !Files.isDirectory(SOCKET_DIR);
        Files.createDirectories(SOCKET_DIR);
        Path key = dir.resolve("munge.key");
        byte[] bytes = new byte[1024];
        new SecureRandom().nextBytes(bytes);
        Files.createFile(key, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.write(key, bytes);
        List<String> argv = new ArrayList<>(SlurmCluster.reaper());
        argv.addAll(List.of(SlurmCluster.path("munged"), "-F", "--force", "--key-file=" + key, "--pid-file=" + dir.resolve("munged.pid"),
                "--log-file=" + dir.resolve("munged.log"), "--seed-file=" + dir.resolve("munged.seed")));
        Process process = new ProcessBuilder(argv).redirectErrorStream(true)
                .redirectOutput(dir.resolve("munged.out").toFile()).start();
        MungeDaemon daemon = new MungeDaemon(process, made);
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!answers()) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                daemon.close();
                throw new IOException("munged did not answer: " + Files.readString(dir.resolve("munged.out")).strip());
            }
            SlurmCluster.sleep(50);
        }
        return daemon;
    }

    /** Whether a credential can be made and decoded on the default socket. */
    static boolean answers() {
        return SlurmTools.mungeWorks(Map.of());
    }

    @Override
    public void close() {
        if (process == null) {
            return;
        }
        SlurmCluster.stop(process);
        if (madeSocketDir) {
            try {
                Files.deleteIfExists(SOCKET_DIR);
            } catch (IOException e) {
                // Not empty: something else uses it now.
            }
        }
    }

    static void waitFor(Process process, long ms) {
        try {
            process.waitFor(ms, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
