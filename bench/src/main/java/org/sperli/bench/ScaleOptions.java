package org.sperli.bench;

import java.util.Arrays;

/**
 * The command line of {@code scripts/bench scale}: {@code [--ranks 64,256,1024,4096] [--settle S] [--idle S]
 * [--rounds R] [--farm-threads T] [--port-base P] [--silence-ms MS] [--launcher-ranks 4096] [--hosts 256]
 * [--lines 10]}. Without {@code --silence-ms} each job gets the limit {@code sperli run} would choose for it with a
 * core per rank. {@code --ranks none} skips the real rank's table, {@code --launcher-ranks 0} the launcher's. A bad
 * word ends the bench with one line.
 */
record ScaleOptions(int[] ranks, long settleSeconds, long idleSeconds, int rounds, int farmThreads, int portBase,
                    Long silenceMsOrNull, int launcherRanks, int hosts, int linesPerRank) {
    static ScaleOptions parse(String[] args) {
        int[] ranks = {64, 256, 1024, 4096};
        long settle = 10;
        long idle = 10;
        int rounds = 20;
        int threads = 2;
        int portBase = 20000;
        Long silence = null;
        int launcherRanks = 4096;
        int hosts = 256;
        int lines = 10;
        for (int i = 0; i < args.length; i += 2) {
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(args[i] + " needs a value");
            }
            String value = args[i + 1];
            switch (args[i]) {
                case "--ranks" -> ranks = value.equals("none") ? new int[0]
                        : Arrays.stream(value.split(",")).mapToInt(Integer::parseInt).toArray();
                case "--settle" -> settle = Long.parseLong(value);
                case "--idle" -> idle = Long.parseLong(value);
                case "--rounds" -> rounds = Integer.parseInt(value);
                case "--farm-threads" -> threads = Integer.parseInt(value);
                case "--port-base" -> portBase = Integer.parseInt(value);
                case "--silence-ms" -> silence = Long.parseLong(value);
                case "--launcher-ranks" -> launcherRanks = Integer.parseInt(value);
                case "--hosts" -> hosts = Integer.parseInt(value);
                case "--lines" -> lines = Integer.parseInt(value);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        for (int n : ranks) {
            if (n < 2 || n > 4096) {
                throw new IllegalArgumentException("--ranks: " + n + " outside 2..4096");
            }
        }
        if (portBase < 1024 || portBase + Arrays.stream(ranks).max().orElse(0) > 65535) {
            throw new IllegalArgumentException("--port-base " + portBase + " leaves no room for the ranks' ports");
        }
        boolean even = hosts >= 1 && launcherRanks % hosts == 0;
        if (launcherRanks < 0 || launcherRanks > 4096 || !even) {
            throw new IllegalArgumentException("--launcher-ranks " + launcherRanks + " on --hosts " + hosts
                    + ": 0 .. 4096 ranks, the same number on every host");
        }
        if (lines < 0 || lines > 1000) {
            throw new IllegalArgumentException("--lines " + lines + " outside 0..1000");
        }
        return new ScaleOptions(ranks, settle, idle, rounds, threads, portBase, silence, launcherRanks, hosts, lines);
    }
}
