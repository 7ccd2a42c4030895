package org.sperli.launcher.job;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import org.sperli.jobspec.RankPhase;
import org.sperli.launcher.report.Console;
import org.sperli.trace.TracePart;

/**
 * One output stream of a rank in one incarnation, cut into lines for the console (which also copies them to
 * {@code --output-dir}). A line end is LF (a CR before it is dropped); a line longer than {@link #MAX_LINE} bytes is
 * passed on in pieces of that size, so a rank that never ends a line cannot fill the launcher's memory. What is left
 * at {@link #close} is passed on as a last line. On stderr, a rank's phase lines ({@link RankPhase}) go to
 * {@link Console#rankPhase} instead, and its trace lines ({@link TracePart}, {@code sperli run --trace}) to
 * {@link Console#rankTrace}.
 */
public final class RankOutput extends OutputStream {
    /** Longest piece of a line held before it is passed on. */
    public static final int MAX_LINE = 64 * 1024;

    private final Console console;
    private final long incarnation;
    private final int rank;
    private final boolean stderr;
    private byte[] buffer = new byte[256];
    private int length;
    private volatile String lastLine = "";

    public RankOutput(Console console, long incarnation, int rank, boolean stderr) {
        this.console = console;
        this.incarnation = incarnation;
        this.rank = rank;
        this.stderr = stderr;
        console.rankStreamOpened(incarnation, rank, stderr);
    }

    @Override
    public synchronized void write(int b) {
        if (b == '\n') {
            emit();
            return;
        }
        if (length == MAX_LINE) {
            emit();
        }
        if (length == buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.min(MAX_LINE, buffer.length * 2));
        }
        buffer[length++] = (byte) b;
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) {
        for (int i = off; i < off + len; i++) {
            write(b[i]);
        }
    }

    @Override
    public synchronized void close() {
        if (length > 0) {
            emit();
        }
    }

    /** The last whole line seen. */
    public String lastLine() {
        return lastLine;
    }

    private void emit() {
        int end = length > 0 && buffer[length - 1] == '\r' ? length - 1 : length;
        String line = new String(buffer, 0, end, StandardCharsets.UTF_8);
        length = 0;
        if (stderr) {
            Optional<RankPhase> phase = RankPhase.ofLine(line);
            if (phase.isPresent()) {
                // Not the rank's last line: a failure is described by what the rank said after it.
                console.rankPhase(rank, phase.get());
                return;
            }
            if (line.startsWith(TracePart.PREFIX)) {
                console.rankTrace(incarnation, rank, line);
                return;
            }
        }
        if (!line.isBlank()) {
            lastLine = line;
        }
        console.rankLine(incarnation, rank, stderr, line);
    }
}
