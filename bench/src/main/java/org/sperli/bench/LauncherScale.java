package org.sperli.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.sperli.identity.JobKit;
import org.sperli.jobspec.RefusedHostPolicy;
import org.sperli.jvm.Clock;
import org.sperli.launcher.job.HostPlan;
import org.sperli.launcher.job.HostSpec;
import org.sperli.launcher.job.IncarnationHistory;
import org.sperli.launcher.job.JobSupervisor;
import org.sperli.launcher.job.LaunchTimeline;
import org.sperli.launcher.job.RankStarter;
import org.sperli.launcher.job.SilenceLimit;
import org.sperli.launcher.report.Console;

/**
 * The launcher's side of a large job, in this JVM: the launcher's own {@link JobSupervisor} (host plan, job kit,
 * descriptions, starts, output, ends) with a {@link StandInAgent} on each of H hosts instead of SSH logins and rank
 * processes. Measured from the moment the launcher makes the job's keys: the seconds until every rank has started
 * (the last STARTED is in), the heap after a full collection at that moment, the threads it added and the CPU of
 * this process by then (the stand-ins' share is decoding the STARTs as an agent would), the bytes of all STARTs (what
 * the control streams carried to the hosts, the descriptions most of it), and the seconds until all ranks' output
 * lines went through the launcher's console and the job completed.
 */
final class LauncherScale {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final long MIB = 1L << 20;

    /** One row: seconds, bytes, a count of threads, CPU seconds, output lines. */
    record Row(int ranks, int hosts, double kitS, double allStartedS, long heap, int threads, double cpuS,
               long startBytes, double endedS, long lines, int exitStatus) {
        String format() {
            return String.format(Locale.ROOT, "| %d | %d | %.2f | %.2f | %.0f | %d | %.1f | %.0f | %.2f | %d | %d |",
                    ranks, hosts, kitS, allStartedS, heap / (double) MIB, threads, cpuS, startBytes / 1e6, endedS,
                    lines, exitStatus);
        }
    }

    static final String HEADER = "| ranks | hosts | keys s | all started s | heap MiB | threads | CPU s | START MB"
            + " | all ended s | output lines | status |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|";

    private LauncherScale() {
    }

    static Row run(int ranks, int hosts, int linesPerRank) throws Exception {
        if (ranks % hosts != 0) {
            throw new IllegalArgumentException(ranks + " ranks do not fill " + hosts + " hosts evenly");
        }
        List<HostSpec> specs = new ArrayList<>();
        for (int r = 0; r < ranks; r++) {
            specs.add(new HostSpec(String.format(Locale.ROOT, "node%03d.example", r / (ranks / hosts) + 1),
                    HostSpec.NO_PORT, "bench"));
        }
        AtomicLong lines = new AtomicLong();
        Console console = new Console(new PrintWriter(new LineCounter(lines), true),
                new PrintWriter(Writer.nullWriter()), true, false, false);
        int baseThreads = ManagementFactory.getThreadMXBean().getThreadCount();
        long cpu0 = processCpuNanos();
        long t0 = System.nanoTime();
        HostPlan plan = HostPlan.build(specs, HostPlan.DEFAULT_PORT_BASE);
        JobKit kit = JobKit.create(plan.entries(), SilenceLimit.of(null, ranks, 0, 1).ms(), JobKit.JOB_LIFETIME,
                Instant.now(), RANDOM);
        long kitNs = System.nanoTime() - t0;
        StandInJob job = new StandInJob(ranks, linesPerRank);
        AtomicReference<JobSupervisor.Result> result = new AtomicReference<>();
        try (StandInRanks standIns = new StandInRanks(job, console)) {
            RankStarter noLocal = (rank, incarnation, entry, line) -> {
                throw new IOException("this benchmark has no local ranks");
            };
            JobSupervisor supervisor = new JobSupervisor(plan, kit, RefusedHostPolicy.fromEnvironment(Map.of(), null,
                    w -> { }), 0, false, noLocal, standIns, console, new LaunchTimeline(System::nanoTime),
                    Clock.SYSTEM, new IncarnationHistory(Clock.SYSTEM, System::nanoTime));
            Thread launcher = new Thread(() -> result.set(supervisor.run()), "bench-launcher");
            launcher.start();
            long started = job.awaitAllStarted();
            long cpuStarted = processCpuNanos();
            int threads = ManagementFactory.getThreadMXBean().getThreadCount() - baseThreads;
            long heap = heapAfterCollection();
            job.finish();
            launcher.join();
            long ended = System.nanoTime();
            return new Row(ranks, hosts, kitNs / 1e9, (started - t0) / 1e9, heap, threads, (cpuStarted - cpu0) / 1e9,
                    job.startBytes(), (ended - t0) / 1e9, lines.get(), result.get().exitStatus());
        }
    }

    private static long heapAfterCollection() {
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /** The launcher's standard output, counted in lines and otherwise dropped. */
    private static final class LineCounter extends Writer {
        private final AtomicLong lines;

        LineCounter(AtomicLong lines) {
            this.lines = lines;
        }

        @Override
        public void write(char[] buf, int off, int len) {
            for (int i = off; i < off + len; i++) {
                if (buf[i] == '\n') {
                    lines.incrementAndGet();
                }
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }
}
