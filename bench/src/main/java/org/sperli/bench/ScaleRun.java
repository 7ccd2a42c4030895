package org.sperli.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import org.sperli.identity.JobKit;
import org.sperli.jobspec.DescriptionLine;
import org.sperli.jobspec.EncodedHostList;
import org.sperli.jobspec.JobDescription;
import org.sperli.jobspec.RankPhase;
import org.sperli.launcher.demo.JobJars;
import org.sperli.launcher.job.JobJar;
import org.sperli.launcher.job.RankCommand;
import org.sperli.launcher.job.SilenceLimit;

/**
 * One row of {@link ScaleBench}: a job of N ranks on 127.0.0.1 whose rank 0 is a real rank process, started as
 * {@code sperli run} starts a local rank (the same argument vector, its description line on standard input, which
 * stays open), running {@link ScaleJob}, and whose ranks 1 to N-1 are a {@link PeerFarm}. The rank's CPU is sampled
 * from {@code /proc} at the farm's first accepted connection, after the first and before the last hundred handshakes
 * (fewer below 201 ranks: half of them each), at the last, and when the rank says it is connected.
 */
final class ScaleRun {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String HOST = "127.0.0.1";
    private static final long LIMIT_S = 600;
    private static final int SAMPLE = 100;

    /** The figures of one row; times in seconds, CPU per handshake in ms, memory in bytes. */
    record Row(int ranks, double connectedS, double cpuAtConnectedS, double firstHandshakeMs, double lastHandshakeMs,
               long connectedHeap, long idleHeap, long threads, long fds, long rssKb, double idleCpu,
               double barrierMs, double allreduceMs) {
    }

    private final int ranks;
    private final ScaleOptions options;
    private final ScaleSchedule schedule;
    /** The rank's CPU at the farm's milestones, written on the farm's event loops. */
    private final AtomicLongArray cpu = new AtomicLongArray(4);

    ScaleRun(int ranks, ScaleOptions options) {
        this.ranks = ranks;
        this.options = options;
        this.schedule = new ScaleSchedule(options.rounds());
    }

    /** The job's silence limit: the one asked for, else the one {@code sperli run} chooses with a core per rank. */
    long silenceMs() {
        return options.silenceMsOrNull() != null ? options.silenceMsOrNull()
                : SilenceLimit.of(null, ranks, ranks, ranks).ms();
    }

    Row run(Path dir) throws IOException, InterruptedException {
        List<JobDescription.HostEntry> hosts = new ArrayList<>();
        for (int r = 0; r < ranks; r++) {
            hosts.add(new JobDescription.HostEntry(HOST, options.portBase() + r));
        }
        Instant now = Instant.now();
        JobKit kit = JobKit.create(hosts, silenceMs(), JobKit.JOB_LIFETIME, now, RANDOM);
        JobDescription own = kit.description(0, 1, now);
        DescriptionLine line = own.toLine(EncodedHostList.of(hosts));
        own.destroySecrets();
        Path jar = JobJars.write(dir.resolve("scale-job.jar"), ScaleJob.class, ScaleSchedule.class);
        List<String> argv = RankCommand.of(null, System.getenv()).localArgv(0, null, JobJar.open(jar),
                List.of(Long.toString(options.settleSeconds()), Long.toString(options.idleSeconds()),
                        Integer.toString(schedule.rounds())));
        try (PeerFarm farm = new PeerFarm(kit, silenceMs(), schedule, options.farmThreads())) {
            farm.listen(now);
            return measured(farm, argv, line);
        } finally {
            line.wipe();
        }
    }

    private Row measured(PeerFarm farm, List<String> argv, DescriptionLine line)
            throws IOException, InterruptedException {
        int peers = ranks - 1;
        int sample = Math.min(SAMPLE, peers / 2);
        long t0 = System.nanoTime();
        Process rank = new ProcessBuilder(argv).start();
        long pid = rank.pid();
        farm.watch(new PeerFarm.Milestones() {
            @Override
            public void accepted(int count) {
                if (count == 1) {
                    cpu.set(0, ProcCpu.nanos(pid));
                }
            }

            @Override
            public void handshaken(int count) {
                if (count == sample) {
                    cpu.set(1, ProcCpu.nanos(pid));
                }
                if (count == peers - sample) {
                    cpu.set(2, ProcCpu.nanos(pid));
                }
                if (count == peers) {
                    cpu.set(3, ProcCpu.nanos(pid));
                }
            }
        });
        OutputStream stdin = rank.getOutputStream();
        line.writeTo(stdin);
        stdin.flush();
        List<String> stderr = Collections.synchronizedList(new ArrayList<>());
        long[] connected = {-1, -1};
        Thread errors = new Thread(() -> readStderr(rank, stderr, connected, t0, pid), "scale-rank-stderr");
        errors.start();
        String result = null;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(rank.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String l = out.readLine(); l != null; l = out.readLine()) {
                if (l.startsWith(ScaleJob.RESULT)) {
                    result = l.substring(ScaleJob.RESULT.length());
                }
            }
        }
        boolean ended = rank.waitFor(LIMIT_S, TimeUnit.SECONDS);
        stdin.close();
        if (!ended) {
            rank.destroyForcibly();
        }
        errors.join(TimeUnit.SECONDS.toMillis(5));
        if (!ended || rank.exitValue() != 0 || result == null) {
            throw new IllegalStateException(ranks + " ranks: the real rank " + (ended ? "ended with status "
                    + rank.exitValue() : "did not end within " + LIMIT_S + " s") + "; farm: " + farm.handshakes()
                    + " handshakes, " + farm.hellosChecked() + " HELLOs, " + farm.byes() + " BYEs, " + farm.failures()
                    + " failures (first: "
                    + farm.firstFailure() + "); the rank's last lines: " + tail(stderr));
        }
        return row(result, connected, sample);
    }

    private static void readStderr(Process rank, List<String> lines, long[] connected, long t0, long pid) {
        String phase = RankPhase.PREFIX + RankPhase.CONNECTED.word();
        try (BufferedReader err = new BufferedReader(new InputStreamReader(rank.getErrorStream(),
                StandardCharsets.UTF_8))) {
            for (String l = err.readLine(); l != null; l = err.readLine()) {
                if (l.equals(phase)) {
                    connected[0] = System.nanoTime() - t0;
                    connected[1] = ProcCpu.nanos(pid);
                }
                lines.add(l);
            }
        } catch (IOException e) {
            lines.add("(standard error unreadable: " + e.getMessage() + ")");
        }
    }

    private Row row(String result, long[] connected, int sample) {
        String[] f = result.trim().split(" ");
        double first = (cpu.get(1) - cpu.get(0)) / 1e6 / sample;
        double last = (cpu.get(3) - cpu.get(2)) / 1e6 / sample;
        return new Row(ranks, connected[0] / 1e9, connected[1] / 1e9, first, last, Long.parseLong(f[0]),
                Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3]), Long.parseLong(f[4]),
                Double.parseDouble(f[5]), Double.parseDouble(f[6]), Double.parseDouble(f[7]));
    }

    private static String tail(List<String> lines) {
        synchronized (lines) {
            return String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
        }
    }

    static Path tempDir() throws IOException {
        return Files.createTempDirectory("sperli-bench-scale");
    }
}
