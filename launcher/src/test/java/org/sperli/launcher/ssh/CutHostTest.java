package org.sperli.launcher.ssh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sperli.launcher.LauncherHarness;
import org.sperli.launcher.demo.JobJars;
import org.sperli.launcher.testjob.CheckpointTestJob;
import org.sperli.launcher.testjob.CrashAtCheckpointStep;

/**
 * Issue 14, point 1: a host that stops answering in the middle of a job. Three "hosts" (127.0.0.2, 127.0.0.3,
 * 127.0.0.4), each an embedded SSH server with a home of its own; the third is reached through a {@link Cable} that the
 * test cuts: from then on it carries no byte either way and new connections hang, as behind a link that is down. The
 * ranks behind it are frozen with SIGSTOP, so that their peers hear nothing from them either. The job must still
 * complete, from its last checkpoint, with the result of an undisturbed run, within one restart, the cut host's ranks
 * moved to the hosts that answer.
 */
class CutHostTest {
    private static final String[] HOSTS = {"127.0.0.2", "127.0.0.3", "127.0.0.4"};
    private static final Pattern RESULT = Pattern.compile("\\[rank 0\\] result=(\\S+)");

    @TempDir
    Path dir;

    private final List<EmbeddedSshServer> servers = new ArrayList<>();
    private Cable cable;
    private Path sshDir;
    private Path rankTmp;
    private Path jar;

    @BeforeEach
    void startHosts() throws Exception {
        sshDir = dir.resolve("ssh");
        rankTmp = Files.createDirectory(dir.resolve("rank-tmp"));
        StringBuilder config = new StringBuilder();
        for (int h = 0; h < HOSTS.length; h++) {
            EmbeddedSshServer server = EmbeddedSshServer.start(Files.createDirectory(dir.resolve("home-" + h)));
            server.installRankd();
            servers.add(server);
            server.writeClientFiles(sshDir, "key-" + h, List.of());
            int port = server.port();
            if (h == HOSTS.length - 1) {
                cable = Cable.to(server.port());
                port = cable.port();
            }
            config.append("Host ").append(HOSTS[h]).append("\n    HostName 127.0.0.1\n    Port ").append(port)
                    .append("\n    User sperli-test\n    IdentityFile ").append(sshDir.resolve("key-" + h)).append('\n');
        }
        Files.writeString(sshDir.resolve("config"), config);
        jar = dir.resolve("checkpoint-job.jar");
        JobJars.write(jar, CheckpointTestJob.class, CheckpointTestJob.State.class, CrashAtCheckpointStep.class);
    }

    @AfterEach
    void stopHosts() throws Exception {
        LauncherHarness.descendants().forEach(p -> signal(p, "CONT"));
        LauncherHarness.killDescendants();
        if (cable != null) {
            cable.close();
        }
        for (EmbeddedSshServer server : servers) {
            server.close();
        }
    }

    private String rankd() {
        return Path.of(System.getProperty("java.home"), "bin", "java") + " " + LauncherHarness.RANK_JAVA_OPTS
                + " -Djava.io.tmpdir=" + rankTmp + " -cp " + System.getProperty("java.class.path")
                + " org.sperli.rankd.Main";
    }

    private LauncherHarness.Run run(List<Integer> ports, String... more) {
        return run(ports, line -> { }, more);
    }

    private LauncherHarness.Run run(List<Integer> ports, Consumer<String> errLines, String... more) {
        List<String> args = new ArrayList<>(List.of("run", "--ssh", "--ssh-dir", sshDir.toString(),
                "--accept-new-host-keys", "--rankd", rankd(), "--silence-ms", "2000", "--port-base",
                String.valueOf(ports.get(ports.size() - 1)), "--hosts",
                LauncherHarness.hosts(ports.subList(0, 5), HOSTS)));
        args.addAll(List.of(more));
        args.add(jar.toString());
        args.addAll(List.of("40", "5", "100"));
        return LauncherHarness.run(LauncherHarness.environment(Map.of()), line -> { }, errLines, command -> { },
                args.toArray(String[]::new));
    }

    @Test
    void aHostCutMidJobHasItsRanksMovedAndTheJobCompletesWithinOneRestart() throws Exception {
        // Five ranks in turn on the three hosts: only rank 2 runs on the host that is cut. (All "hosts" share this
        // machine's ports, so two ranks moved to two hosts at the same --port-base would collide here.)
        List<Integer> ports = LauncherHarness.freePorts(6);
        long referenceStart = System.nanoTime();
        String expected = result(run(ports, "--checkpoint-dir", dir.resolve("ck-reference").toString()));
        double referenceSeconds = (System.nanoTime() - referenceStart) / 1e9;

        Path checkpoints = dir.resolve("ck");
        AtomicBoolean cut = new AtomicBoolean();
        long[] cutAtNs = new long[1];
        Thread cutter = new Thread(() -> {
            // Cut once the job has checkpointed twice, so that some work must be redone and some need not be.
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (System.nanoTime() < deadline && !checkpointed(checkpoints, 2)) {
                sleep(20);
            }
            cutAtNs[0] = System.nanoTime();
            cable.cut();
            freezeRanksIn(servers.get(HOSTS.length - 1).home());
            cut.set(true);
        });
        cutter.setDaemon(true);
        cutter.start();
        long started = System.nanoTime();
        long[] reportedAtNs = new long[1];
        LauncherHarness.Run run = run(ports, line -> {
            if (reportedAtNs[0] == 0 && cut.get() && line.contains("; ending the other ranks")) {
                reportedAtNs[0] = System.nanoTime();
            }
        }, "--checkpoint-dir", checkpoints.toString(), "--restart-max", "1");
        cutter.join(5_000);

        assertTrue(cut.get(), "the job ended before the cut: " + run.err());
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(expected, result(run), run.out());
        assertTrue(run.err().contains("rank 2 moves from 127.0.0.4"), run.err());
        assertTrue(run.err().contains("host 127.0.0.4 cannot be reached"), run.err());
        assertTrue(run.out().contains("incarnation=2"), run.out());
        double seconds = (System.nanoTime() - started) / 1e9;
        assertTrue(cutAtNs[0] > started, "cut after the start");
        // The recovery (the silence, ending the ranks, probing the host, a new incarnation that resumes) costs this
        // run its extra time over the undisturbed one; bounded loosely here, for a busy machine.
        double extra = seconds - referenceSeconds;
        double reportSeconds = (reportedAtNs[0] - cutAtNs[0]) / 1e9;
        System.out.printf(java.util.Locale.ROOT, "cut host: undisturbed %.1f s, with the cut %.1f s, extra %.1f s;"
                + " the launcher said so %.1f s after the cut%n", referenceSeconds, seconds, extra, reportSeconds);
        // The bound is the silence limit (2 s) + 2 s; 2 s more for a busy machine.
        assertTrue(reportedAtNs[0] > 0 && reportSeconds < 6, "the launcher said so " + reportSeconds
                + " s after the cut");
        assertTrue(extra < 60, "the recovery took " + extra + " s more than an undisturbed run");
    }

    private static boolean checkpointed(Path root, long epoch) {
        try (var jobs = Files.list(root)) {
            for (Path job : jobs.toList()) {
                if (Files.exists(job.resolve(String.valueOf(epoch)).resolve("COMMIT"))) {
                    return true;
                }
            }
        } catch (IOException notYet) {
            return false;
        }
        return false;
    }

    /** SIGSTOP to every process this test started whose working directory is {@code home}: that host's ranks. */
    private static void freezeRanksIn(Path home) {
        for (ProcessHandle p : LauncherHarness.descendants()) {
            try {
                Path cwd = Files.readSymbolicLink(Path.of("/proc", String.valueOf(p.pid()), "cwd"));
                if (cwd.equals(home) || cwd.equals(home.toRealPath())) {
                    signal(p, "STOP");
                }
            } catch (IOException | UnsupportedOperationException gone) {
                // ended meanwhile
            }
        }
    }

    private static void signal(ProcessHandle p, String name) {
        try {
            new ProcessBuilder("kill", "-" + name, String.valueOf(p.pid())).start().waitFor();
        } catch (IOException e) {
            // nothing to signal
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String result(LauncherHarness.Run run) {
        Matcher m = RESULT.matcher(run.out());
        assertTrue(m.find(), "no result: " + run.out() + run.err());
        return m.group(1);
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * A TCP relay to one port that can be cut: after {@link #cut} it forwards nothing, in either direction, and new
     * connections are accepted but never served, as behind a link that is down (no reset, no close).
     */
    static final class Cable implements AutoCloseable {
        private final ServerSocket listener;
        private final int target;
        private final List<Socket> sockets = new CopyOnWriteArrayList<>();
        private volatile boolean cut;

        private Cable(ServerSocket listener, int target) {
            this.listener = listener;
            this.target = target;
        }

        static Cable to(int targetPort) throws IOException {
            Cable c = new Cable(new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1")), targetPort);
            Thread t = new Thread(c::accept, "cable-" + targetPort);
            t.setDaemon(true);
            t.start();
            return c;
        }

        int port() {
            return listener.getLocalPort();
        }

        void cut() {
            cut = true;
        }

        private void accept() {
            while (!listener.isClosed()) {
                try {
                    Socket in = listener.accept();
                    sockets.add(in);
                    if (cut) {
                        continue;
                    }
                    Socket out = new Socket(InetAddress.getByName("127.0.0.1"), target);
                    sockets.add(out);
                    pump(in, out);
                    pump(out, in);
                } catch (IOException e) {
                    return;
                }
            }
        }

        private void pump(Socket from, Socket to) {
            Thread t = new Thread(() -> {
                byte[] buffer = new byte[16 * 1024];
                try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                    for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                        while (cut) {
                            Thread.sleep(50);
                            if (listener.isClosed()) {
                                return;
                            }
                        }
                        out.write(buffer, 0, n);
                        out.flush();
                    }
                } catch (IOException | InterruptedException e) {
                    // the relay ends with either side
                }
            }, "cable-pump");
            t.setDaemon(true);
            t.start();
        }

        @Override
        public void close() throws IOException {
            listener.close();
            for (Socket s : sockets) {
                s.close();
            }
        }
    }
}
