package org.sperli.launcher.command;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** What a run leaves behind besides the terminal: rank output files, their timestamps, and the JSON report. */
public final class OutputOptions {
    @Option(names = "--output-dir", paramLabel = "DIR",
            description = "Also write each rank's stdout and stderr to DIR/JOB-ID/INCARNATION/rank.N/stdout and"
                    + " stderr (directories 0700, files 0600; DIR is made when missing).")
    Path dirOrNull;

    @Option(names = "--timestamp-output",
            description = "Start each line of rank output with the time the launcher read it, ISO-8601 UTC with"
                    + " milliseconds (2026-12-01T09:15:02.047Z); in --output-dir files too.")
    boolean timestamps;

    @Option(names = "--report", paramLabel = "FILE",
            description = "Write a JSON summary of the run to FILE when it ends, however it ends (atomically, 0600):"
                    + " job id, every incarnation with its ranks' hosts, exit statuses, H codes and durations, the"
                    + " restarts and why, the exit status. A FILE that cannot be written stops the launch first.")
    Path reportOrNull;

    @Option(names = "--trace", paramLabel = "FILE",
            description = "Trace every rank and write FILE when the job ends, however it ends: Chrome's Trace Event"
                    + " format (open it in https://ui.perfetto.dev or chrome://tracing), one track per rank, a span"
                    + " for every call with its peer and bytes, each collective with its sequence number, checkpoint"
                    + " and resume phases, connection setup; every incarnation. A rank killed by a signal loses its"
                    + " part. See docs/sperli-trace.md.")
    Path traceOrNull;

    @Option(names = "--trace-events", paramLabel = "N",
            description = "With --trace: each rank keeps its newest N events (default: 65536, about 10 MB of"
                    + " JSON per rank; at most 1048576).")
    Integer traceEventsOrNull;
}
