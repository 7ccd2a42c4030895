package org.sperli.bench;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import org.sperli.crypto.AccpLibrary;
import org.sperli.crypto.CryptoEngine;
import org.sperli.crypto.Pem;
import org.sperli.identity.RankCredentials;
import org.sperli.identity.TlsSockets;
import org.sperli.launcher.job.RankJvmDefaults;
import org.sperli.protocol.JobId;
import org.sperli.runtime.PeerAddress;

/**
 * The floor of a JVM-per-rank TLS mesh: N JVMs (and one more for the launcher) that each do only what every rank of
 * a Java implementation must do before its program can run, and nothing of SPERLI's own: start, select the TLS
 * engine as a rank does (ACCP where it loads), load their identity, listen, and make the full mesh of TLS 1.3
 * connections with mutual Ed25519 authentication against the job CA (blocking JSSE sockets, a thread per connection,
 * each side sending one byte after the handshake), then exit. No Netty, no join token, no description check, no
 * HELLO, heartbeat or BYE.
 *
 * <p>The launch benchmark sets SPERLI's hello job beside this: what SPERLI costs above the floor is its own; what the
 * floor costs is what any implementation with one JVM per rank and SunJSSE pays on the same machine (to go below it,
 * a JVM would have to start faster or the TLS stack cost less, not the code above them). The keys and certificates
 * are made before the clock starts (the launcher makes SPERLI's within its measured time: about 0.07 s). The launch
 * benchmark runs it up to 32 ranks: at 64 its 4,032 threads starved the JVMs that started last, so that their peers
 * gave up dialing them after two minutes (SPERLI's event loops do not have that problem).
 */
final class TlsMeshFloor {
    private static final long CHILD_TIMEOUT_S = 600;
    private static final long DIAL_GIVE_UP_MS = 120_000;
    private static final long DIAL_RETRY_MS = 5;
    private static final int BACKLOG = 4096;

    private TlsMeshFloor() {
    }

    /**
     * Runs the mesh of {@code size} JVMs of this bench's java and one bare JVM, all started at once; the seconds until
     * the last ended. A JVM that fails or is not done in time fails the measurement.
     */
    static double run(int size) throws IOException, InterruptedException {
        InProcessJob job = new InProcessJob(size);
        List<Start> ranks = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            ranks.add(new Start(job, r));
        }
        return measure(ranks, "TLS mesh floor at " + size + " ranks");
    }

    /**
     * The same start without the mesh: {@code count} such JVMs, each the one rank of a job of its own (so it makes
     * no connection), and one bare JVM; the seconds until the last ended.
     */
    static double withoutMesh(int count) throws IOException, InterruptedException {
        List<Start> ranks = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ranks.add(new Start(new InProcessJob(1), 0));
        }
        return measure(ranks, count + " TLS JVMs without the mesh");
    }

    /** A floor rank to start: rank {@code rank} of {@code job}. */
    private record Start(InProcessJob job, int rank) {
    }

    private static double measure(List<Start> ranks, String what) throws IOException, InterruptedException {
        List<String> rankJava = rankJava();
        List<BoundedChild> children = new ArrayList<>();
        long start = System.nanoTime();
        try {
            children.add(BoundedChild.start(List.of(rankJava.get(0), "-cp", System.getProperty("java.class.path"),
                    LaunchBench.Hello.class.getName())));
            for (Start rank : ranks) {
                InProcessJob job = rank.job();
                List<String> command = new ArrayList<>(rankJava);
                command.addAll(List.of(Rank.class.getName(), job.job().hex(), String.valueOf(job.size()),
                        String.valueOf(rank.rank())));
                BoundedChild child = BoundedChild.start(command);
                children.add(child);
                try (DataOutputStream in = new DataOutputStream(child.process().getOutputStream())) {
                    in.writeUTF(Pem.certificate(job.caCertificate()));
                    in.writeUTF(Pem.certificate(job.credentials(rank.rank()).certificate()));
                    in.writeUTF(Pem.privateKey(job.credentials(rank.rank()).privateKey()));
                    for (PeerAddress peer : job.hosts()) {
                        in.writeInt(peer.port());
                    }
                }
            }
            // Every failure is read, not only the first: a rank that gave up makes its peers fail to connect too.
            Set<String> failures = new LinkedHashSet<>();
            while (!children.isEmpty()) {
                BoundedChild.Finished done = children.remove(0).finish(CHILD_TIMEOUT_S);
                if (!done.endedInTime() || done.status() != 0) {
                    failures.add(done.endedInTime() ? done.output().strip() : "a JVM was not done in time");
                }
            }
            if (!failures.isEmpty()) {
                throw new IllegalStateException(what + " failed: " + String.join("; ", failures));
            }
            return (System.nanoTime() - start) / 1e9;
        } finally {
            // Children not waited for (a start or a write to one failed): ended, and their output files removed.
            for (BoundedChild child : children) {
                try {
                    child.finish(0);
                } catch (IOException e) {
                    child.process().destroyForcibly();
                } catch (InterruptedException e) {
                    child.process().destroyForcibly();
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /**
     * The java command of a floor rank up to its main class: this bench's java with the options a local SPERLI rank
     * gets from the launcher (the JIT thresholds and huge pages of {@link RankJvmDefaults}, ACCP's unpacked library,
     * the ranks' class-data archive where {@code scripts/sperli} has made one for the launcher jar on this JDK), and
     * that jar first on the class path, then this bench's (whose classes the archive leaves out).
     */
    static List<String> rankJava() throws IOException {
        Path javaHome = Path.of(System.getProperty("java.home")).toRealPath();
        List<String> command = new ArrayList<>(List.of(javaHome.resolve("bin").resolve("java").toString()));
        Path jar = launcherJar();
        Path archive = rankArchive(javaHome, jar);
        if (Files.isRegularFile(archive)) {
            command.add("-XX:SharedArchiveFile=" + archive);
        }
        command.addAll(AccpLibrary.jvmOptions(System.getenv()));
        command.add(AccpLibrary.NATIVE_ACCESS);
        command.addAll(RankJvmDefaults.OPTIONS);
        command.addAll(RankJvmDefaults.forThisHost(RankJvmDefaults.THP_MODE));
        command.addAll(List.of("-cp", jar + File.pathSeparator + System.getProperty("java.class.path")));
        return command;
    }

    /** Whether the floor's ranks start with the ranks' class-data archive (it exists after a SPERLI job). */
    static boolean archived() throws IOException {
        return rankJava().stream().anyMatch(word -> word.startsWith("-XX:SharedArchiveFile="));
    }

    private static Path launcherJar() throws IOException {
        try (Stream<Path> jars = Files.list(Path.of("launcher", "target"))) {
            return jars.filter(f -> f.getFileName().toString().matches("sperli-launcher-.*-all\\.jar")).findFirst()
                    .orElseThrow(() -> new IOException("no launcher/target/sperli-launcher-*-all.jar: build first"))
                    .toAbsolutePath();
        }
    }

    /** Where {@code lib/sperli.sh} (sperli_cds_base) keeps the ranks' archive of {@code jar} on this JDK. */
    private static Path rankArchive(Path javaHome, Path jar) throws IOException {
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path cache = xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute() ? Path.of(xdg)
                : Path.of(System.getProperty("user.home"), ".cache");
        String name = jar.getFileName().toString().replaceFirst("\\.jar$", "");
        long mtime = Files.getLastModifiedTime(jar).to(TimeUnit.SECONDS);
        return cache.resolve("sperli").resolve("cds").resolve(javaHome.toString().replace('/', '_'))
                .resolve(name + "-" + Files.size(jar) + "-" + mtime + ".jsa");
    }

    /** One rank of the floor: {@code JOB-HEX SIZE RANK}, its identity and every rank's port on stdin. */
    static final class Rank {
        private Rank() {
        }

        public static void main(String[] args) throws Exception {
            CryptoEngine.select(null, System.getenv());
            JobId job = JobId.parseHex(args[0]);
            int size = Integer.parseInt(args[1]);
            int rank = Integer.parseInt(args[2]);
            DataInputStream in = new DataInputStream(System.in);
            String caPem = in.readUTF();
            RankCredentials me = RankCredentials.fromPem(in.readUTF(), in.readUTF());
            int[] ports = new int[size];
            for (int r = 0; r < size; r++) {
                ports[r] = in.readInt();
            }
            SSLContext context = TlsSockets.context(job, size, Pem.parseCertificate(caPem), me);
            InetAddress loopback = InetAddress.getByName("127.0.0.1");
            AtomicReference<Throwable> failure = new AtomicReference<>();
            CountDownLatch done = new CountDownLatch(size - 1);
            try (SSLServerSocket server = TlsSockets.listen(context, ports[rank], BACKLOG, loopback)) {
                start(() -> {
                    for (int lower = 0; lower < rank; lower++) {
                        SSLSocket accepted = (SSLSocket) server.accept();
                        start(() -> exchange(accepted), failure, done, true);
                    }
                }, failure, done, false);
                for (int higher = rank + 1; higher < size; higher++) {
                    int port = ports[higher];
                    start(() -> exchange(dial(context, loopback, port)), failure, done, true);
                }
                if (!done.await(CHILD_TIMEOUT_S, TimeUnit.SECONDS) || failure.get() != null) {
                    System.err.println("rank " + rank + ": " + (failure.get() == null ? "not done in time"
                            : failure.get()));
                    System.exit(1);
                }
            }
        }

        private interface Connection {
            void run() throws IOException;
        }

        /**
         * Runs {@code connection} on a thread of its own; counts {@code done} down once when it succeeded and
         * {@code counts}, and to zero when it failed, so that the rank ends at once.
         */
        private static void start(Connection connection, AtomicReference<Throwable> failure, CountDownLatch done,
                                  boolean counts) {
            Thread t = new Thread(() -> {
                try {
                    connection.run();
                    if (counts) {
                        done.countDown();
                    }
                } catch (IOException | RuntimeException e) {
                    failure.compareAndSet(null, e);
                    while (done.getCount() > 0) {
                        done.countDown();
                    }
                }
            });
            t.setDaemon(true);
            t.start();
        }

        /** Connects, retrying soon while the peer's JVM is not listening yet (as SPERLI's first retries do). */
        private static SSLSocket dial(SSLContext context, InetAddress host, int port) throws IOException {
            long giveUp = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DIAL_GIVE_UP_MS);
            while (true) {
                Socket plain = new Socket();
                try {
                    plain.connect(new InetSocketAddress(host, port));
                    return TlsSockets.layer(context, plain, host.getHostAddress(), port);
                } catch (ConnectException notYet) {
                    plain.close();
                    if (System.nanoTime() > giveUp) {
                        throw notYet;
                    }
                    try {
                        Thread.sleep(DIAL_RETRY_MS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IOException("interrupted", e);
                    }
                }
            }
        }

        /** The handshake, then one byte each way, so that both sides have seen the other's Finished. */
        private static void exchange(SSLSocket socket) throws IOException {
            try (socket) {
                socket.startHandshake();
                OutputStream out = socket.getOutputStream();
                out.write(1);
                out.flush();
                InputStream in = socket.getInputStream();
                if (in.read() != 1) {
                    throw new IOException("peer closed before its byte");
                }
            }
        }
    }
}
