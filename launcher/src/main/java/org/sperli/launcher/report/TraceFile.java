package org.sperli.launcher.report;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.sperli.trace.ChromeTrace;
import org.sperli.trace.TracePart;

/**
 * {@code sperli run --trace FILE}: every rank traces itself ({@code sperli-rankd --trace EVENTS}) and hands its part
 * over as lines on its standard error when it ends ({@link TracePart}); this collects them, per incarnation and rank,
 * as they arrive ({@link Console#onRankTrace}) and writes one file when the job ends, however it ends
 * ({@link ChromeTrace}: Chrome's Trace Event format, other hosts' clocks aligned from the HELLO exchange). Ranks hand
 * their parts over rather than the launcher reading files they wrote, so that SSH ranks need no file transfer and
 * no cleanup on their hosts; a rank killed by a signal has no chance to, and its part is missing. Written
 * atomically (a temporary file beside FILE, renamed over it), owner-only as the {@code --report}.
 */
public final class TraceFile {
    private final Path file;
    private final Map<String, TracePart.Reader> readers = new TreeMap<>();

    /** Collects for {@code file}, as {@link ReportFile#check}ed. */
    public TraceFile(Path file) {
        this.file = file;
    }

    /** One trace line of rank {@code rank} in incarnation {@code incarnation}. */
    public synchronized void line(long incarnation, int rank, String line) {
        readers.computeIfAbsent(incarnation + "/" + rank, k -> new TracePart.Reader()).accept(line);
    }

    /** The parts read whole so far. */
    public synchronized List<TracePart> parts() {
        List<TracePart> parts = new ArrayList<>();
        readers.values().forEach(r -> parts.addAll(r.parts()));
        return parts;
    }

    /** Writes the file; returns how many rank parts it holds. */
    public int write(String jobId) throws IOException {
        List<TracePart> parts = parts();
        Path tmp = ReportFile.temporary(file);
        try {
            try (Writer out = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                ChromeTrace.write(parts, jobId, out);
            }
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
        return parts.size();
    }

    public Path path() {
        return file;
    }
}
