package org.sperli.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Peak resident memory of the rank processes under a launcher, sampled every 100 ms from {@code /proc/PID/status}
 * (VmRSS) while the job runs: a rank is a descendant whose command line names {@code org.sperli.rankd.Main}.
 */
final class RssWatch {
    private static final long PERIOD_MS = 100;

    private final ProcessHandle launcher;
    private final Map<Long, Long> peakKb = new ConcurrentHashMap<>();
    private final Thread thread;
    private volatile boolean stopped;

    private RssWatch(ProcessHandle launcher) {
        this.launcher = launcher;
        this.thread = new Thread(this::watch, "rss-watch");
        thread.setDaemon(true);
    }

    static RssWatch start(ProcessHandle launcher) {
        RssWatch watch = new RssWatch(launcher);
        watch.thread.start();
        return watch;
    }

    /** Stops sampling; returns the median and the maximum of the ranks' peaks in KiB. */
    long[] stop() throws InterruptedException {
        stopped = true;
        thread.join(2000);
        long[] peaks = peakKb.values().stream().mapToLong(Long::longValue).sorted().toArray();
        return peaks.length == 0 ? new long[] {0, 0} : new long[] {peaks[peaks.length / 2], peaks[peaks.length - 1]};
    }

    private void watch() {
        while (!stopped && launcher.isAlive()) {
            launcher.descendants()
                    .filter(p -> p.info().commandLine().map(c -> c.contains("org.sperli.rankd.Main")).orElse(false))
                    .forEach(p -> {
                        long kb = rssKb(p.pid());
                        if (kb > 0) {
                            peakKb.merge(p.pid(), kb, Math::max);
                        }
                    });
            try {
                Thread.sleep(PERIOD_MS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private static long rssKb(long pid) {
        try {
            return Files.readAllLines(Path.of("/proc", String.valueOf(pid), "status")).stream()
                    .filter(l -> l.startsWith("VmRSS:"))
                    .mapToLong(l -> Long.parseLong(Arrays.stream(l.split("\\s+")).skip(1).findFirst().orElse("0")))
                    .findFirst().orElse(0);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
