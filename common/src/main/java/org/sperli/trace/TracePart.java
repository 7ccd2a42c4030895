package org.sperli.trace;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * What one rank recorded in one incarnation, in time order and in wall time: its events, its threads' names, and the
 * wall times of its HELLO exchange with each peer (0 where there was none). A rank process hands its part to the
 * launcher as lines on standard error ({@link #lines}, each starting with {@value #PREFIX}), which the launcher takes
 * off the rank's output and reads back with a {@link Reader}.
 *
 * @param capacity how many events the rank's ring kept at most
 * @param recorded how many events the rank recorded; those beyond the ring's capacity were dropped, oldest first
 */
public record TracePart(int rank, int size, long incarnation, String host, int capacity, long recorded,
                        Map<Long, String> threads, long[] helloSentNanos, long[] helloReceivedNanos,
                        List<Event> events) {
    /** What every line of a part starts with. */
    public static final String PREFIX = "sperli-trace: ";

    public TracePart {
        threads = Map.copyOf(threads);
        helloSentNanos = helloSentNanos.clone();
        helloReceivedNanos = helloReceivedNanos.clone();
        events = List.copyOf(events);
    }

    /** Events recorded and no longer held: the ring keeps the newest {@link #capacity}. */
    public long dropped() {
        return recorded - events.size();
    }

    /**
     * One event: {@code startNanos} in wall time (nanoseconds since the epoch, on the recording host's clock),
     * {@code durationNanos} 0 for an instant, the fields its kind does not use -1.
     */
    public record Event(TraceKind kind, long thread, long startNanos, long durationNanos, int peer, long tag,
                        long bytes, long seq, boolean failed) {
        /** By start; of two spans that start together the longer first, so that the outer encloses the inner. */
        public static final Comparator<Event> TIME_ORDER = Comparator.comparingLong(Event::startNanos)
                .thenComparing(Comparator.comparingLong(Event::durationNanos).reversed());
    }

    /** The part as lines (without line ends) for a rank's standard error, each starting with {@value #PREFIX}. */
    public void lines(Consumer<String> out) {
        out.accept(PREFIX + "part " + rank + " " + size + " " + incarnation + " " + capacity + " " + recorded + " "
                + host);
        threads.forEach((id, name) -> out.accept(PREFIX + "thread " + id + " " + oneLine(name)));
        for (int p = 0; p < size; p++) {
            if (helloSentNanos[p] != 0 || helloReceivedNanos[p] != 0) {
                out.accept(PREFIX + "hello " + p + " " + helloSentNanos[p] + " " + helloReceivedNanos[p]);
            }
        }
        StringBuilder line = new StringBuilder(96);
        for (Event e : events) {
            line.setLength(0);
            line.append(PREFIX).append("e ").append(e.kind.name()).append(' ').append(e.thread).append(' ')
                    .append(e.startNanos).append(' ').append(e.durationNanos).append(' ').append(e.peer).append(' ')
                    .append(e.tag).append(' ').append(e.bytes).append(' ').append(e.seq).append(' ')
                    .append(e.failed ? 1 : 0);
            out.accept(line.toString());
        }
        out.accept(PREFIX + "end");
    }

    private static String oneLine(String s) {
        return s.replace('\n', ' ').replace('\r', ' ');
    }

    /**
     * Reads the parts of one rank's standard error back, line by line ({@link #accept} every line that starts with
     * {@value #PREFIX}); a part counts once its {@code end} line came. A line it cannot read is skipped: a trace is
     * for looking at, and a damaged line must not fail the job.
     */
    public static final class Reader {
        private final List<TracePart> parts = new ArrayList<>();
        private String[] head;
        private Map<Long, String> threads;
        private long[] sent;
        private long[] received;
        private List<Event> events;

        /** One line of the rank's standard error that starts with {@value #PREFIX}. */
        public void accept(String line) {
            try {
                read(line.substring(PREFIX.length()));
            } catch (RuntimeException damaged) {
                // skipped, see the class comment
            }
        }

        /** The parts read whole so far. */
        public List<TracePart> parts() {
            return List.copyOf(parts);
        }

        private void read(String body) {
            String[] w = body.split(" ", body.startsWith("thread ") ? 3 : body.startsWith("part ") ? 7 : 0);
            switch (w[0]) {
                case "part" -> begin(w);
                case "thread" -> threads.put(Long.parseLong(w[1]), w.length > 2 ? w[2] : "");
                case "hello" -> {
                    int peer = Integer.parseInt(w[1]);
                    sent[peer] = Long.parseLong(w[2]);
                    received[peer] = Long.parseLong(w[3]);
                }
                case "e" -> events.add(new Event(TraceKind.valueOf(w[1]), Long.parseLong(w[2]), Long.parseLong(w[3]),
                        Long.parseLong(w[4]), Integer.parseInt(w[5]), Long.parseLong(w[6]), Long.parseLong(w[7]),
                        Long.parseLong(w[8]), "1".equals(w[9])));
                case "end" -> finish();
                default -> {
                }
            }
        }

        private void begin(String[] w) {
            head = w;
            int size = Integer.parseInt(w[2]);
            threads = new LinkedHashMap<>();
            sent = new long[size];
            received = new long[size];
            events = new ArrayList<>();
        }

        private void finish() {
            if (head == null) {
                return;
            }
            events.sort(Event.TIME_ORDER);
            parts.add(new TracePart(Integer.parseInt(head[1]), Integer.parseInt(head[2]), Long.parseLong(head[3]),
                    head.length > 6 ? head[6] : "", Integer.parseInt(head[4]), Long.parseLong(head[5]), threads, sent,
                    received, events));
            head = null;
        }
    }
}
