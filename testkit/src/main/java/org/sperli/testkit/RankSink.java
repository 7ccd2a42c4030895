package org.sperli.testkit;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * What one rank of one incarnation printed on System.out and System.err, cut into lines (LF ends a line, a CR before
 * it is dropped; what is left at {@link #close} is a last line), and, unless the run is quiet, each line echoed to the
 * original stream as {@code [rank N] line}, as {@code sperli run} shows it. After {@link #close} the rank's threads
 * that are still alive print to the original streams again.
 */
final class RankSink {
    private final int rank;
    private final PrintStream echoOutOrNull;
    private final PrintStream echoErrOrNull;
    private final Lines out = new Lines();
    private final Lines err = new Lines();
    private volatile boolean open = true;

    RankSink(int rank, PrintStream echoOutOrNull, PrintStream echoErrOrNull) {
        this.rank = rank;
        this.echoOutOrNull = echoOutOrNull;
        this.echoErrOrNull = echoErrOrNull;
    }

    boolean open() {
        return open;
    }

    /** Bytes the rank wrote to System.out ({@code stderr} false) or System.err. */
    void write(boolean stderr, byte[] b, int off, int len) {
        Lines lines = stderr ? err : out;
        List<String> done = lines.add(b, off, len);
        echo(stderr, done);
    }

    /** The last unterminated lines become lines; later writes go to the original streams. */
    void close() {
        open = false;
        echo(false, out.finish());
        echo(true, err.finish());
    }

    List<String> stdout() {
        return out.lines();
    }

    List<String> stderr() {
        return err.lines();
    }

    private void echo(boolean stderr, List<String> lines) {
        PrintStream target = stderr ? echoErrOrNull : echoOutOrNull;
        if (target == null || lines.isEmpty()) {
            return;
        }
        synchronized (target) {
            for (String line : lines) {
                target.println("[rank " + rank + "] " + line);
            }
            target.flush();
        }
    }

    /** One stream's lines. */
    private static final class Lines {
        private final ByteArrayOutputStream partial = new ByteArrayOutputStream();
        private final List<String> lines = new ArrayList<>();

        synchronized List<String> add(byte[] b, int off, int len) {
            List<String> done = new ArrayList<>();
            for (int i = off; i < off + len; i++) {
                if (b[i] == '\n') {
                    done.add(take());
                } else {
                    partial.write(b[i]);
                }
            }
            lines.addAll(done);
            return done;
        }

        synchronized List<String> finish() {
            if (partial.size() == 0) {
                return List.of();
            }
            String last = take();
            lines.add(last);
            return List.of(last);
        }

        synchronized List<String> lines() {
            return List.copyOf(lines);
        }

        private String take() {
            String line = partial.toString(StandardCharsets.UTF_8);
            partial.reset();
            return line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
        }
    }
}
