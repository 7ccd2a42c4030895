package org.sperli.trace;

import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes ranks' trace parts as one file in Chrome's Trace Event format (a JSON object with a {@code traceEvents}
 * array), which Perfetto and {@code chrome://tracing} open: one process per rank ({@code pid} = rank, named
 * {@code rank N (host)}), one thread track per thread of the rank that recorded something (the program's thread
 * first), every span an {@code X} event and every instant an {@code i} event, with {@code ts} and {@code dur} in
 * microseconds from the first event, and in {@code args} the peer or root, tag, bytes, sequence number or epoch, the
 * incarnation, and {@code failed} for a call that threw. Incarnations follow each other on the same tracks.
 *
 * <p><b>Clocks.</b> Each part is in its own host's wall time. Ranks on rank 0's host are taken as they are. For a
 * rank elsewhere the offset of its clock from rank 0's is estimated from their HELLO exchange, as NTP estimates an
 * offset from one round: rank r sent its HELLO at {@code s_r} and checked rank 0's at {@code c_r} (its clock); rank 0
 * sent its HELLO to r at {@code s_0} and got r's at {@code c_0} (rank 0's clock); then the offset is
 * {@code ((s_r - c_0) + (c_r - s_0)) / 2}, exact when the two HELLOs took equally long on their way, off by at most
 * half the round trip otherwise. Every rank of a host takes the median of its host's estimates, so that the host's
 * ranks stay aligned with each other as they are.
 */
public final class ChromeTrace {
    private ChromeTrace() {
    }

    /** Writes {@code parts} (any order; the incarnations of a job) with {@code jobId} among the file's data. */
    public static void write(List<TracePart> parts, String jobId, Writer out) throws IOException {
        Map<TracePart, Long> offsets = offsets(parts);
        long origin = Long.MAX_VALUE;
        for (TracePart p : parts) {
            for (TracePart.Event e : p.events()) {
                origin = Math.min(origin, e.startNanos() - offsets.get(p));
            }
        }
        if (origin == Long.MAX_VALUE) {
            origin = 0;
        }
        List<TracePart> ordered = new ArrayList<>(parts);
        ordered.sort(Comparator.comparingInt(TracePart::rank).thenComparingLong(TracePart::incarnation));
        Json json = new Json(out);
        out.write("{\"displayTimeUnit\":\"ms\",\"otherData\":{\"job\":");
        json.string(jobId);
        out.write(",\"clockOffsetsNanos\":{");
        boolean first = true;
        for (TracePart p : ordered) {
            out.write((first ? "" : ",") + "\"rank " + p.rank() + " incarnation " + p.incarnation() + "\":"
                    + offsets.get(p));
            first = false;
        }
        out.write("}},\"traceEvents\":[\n");
        Map<Integer, Map<String, Integer>> tids = new HashMap<>();
        first = true;
        for (TracePart p : ordered) {
            first = writePart(p, offsets.get(p), origin, tids.computeIfAbsent(p.rank(), r -> new LinkedHashMap<>()),
                    json, first);
        }
        out.write("\n]}\n");
        out.flush();
    }

    private static boolean writePart(TracePart p, long offset, long origin, Map<String, Integer> tids, Json json,
                                     boolean first) throws IOException {
        Writer out = json.out;
        if (tids.isEmpty()) {
            out.write((first ? "" : ",\n") + "{\"ph\":\"M\",\"pid\":" + p.rank() + ",\"name\":\"process_name\","
                    + "\"args\":{\"name\":");
            json.string("rank " + p.rank() + " (" + p.host() + ")");
            out.write("}},\n{\"ph\":\"M\",\"pid\":" + p.rank() + ",\"name\":\"process_sort_index\",\"args\":"
                    + "{\"sort_index\":" + p.rank() + "}}");
            first = false;
        }
        Map<Long, Integer> tidOf = new HashMap<>();
        for (Map.Entry<Long, String> t : threadsInOrder(p).entrySet()) {
            Integer tid = tids.get(t.getValue());
            if (tid == null) {
                tid = tids.size();
                tids.put(t.getValue(), tid);
                out.write(",\n{\"ph\":\"M\",\"pid\":" + p.rank() + ",\"tid\":" + tid + ",\"name\":\"thread_name\","
                        + "\"args\":{\"name\":");
                json.string(t.getValue());
                out.write("}},\n{\"ph\":\"M\",\"pid\":" + p.rank() + ",\"tid\":" + tid + ",\"name\":"
                        + "\"thread_sort_index\",\"args\":{\"sort_index\":" + tid + "}}");
            }
            tidOf.put(t.getKey(), tid);
        }
        if (p.dropped() > 0 && !p.events().isEmpty()) {
            out.write(",\n{\"ph\":\"i\",\"s\":\"p\",\"pid\":" + p.rank() + ",\"tid\":0,\"name\":\"older events"
                    + " dropped\",\"ts\":" + micros(p.events().get(0).startNanos() - offset - origin)
                    + ",\"args\":{\"dropped\":" + p.dropped() + ",\"ring\":" + p.capacity() + "}}");
        }
        for (TracePart.Event e : p.events()) {
            out.write(first ? "" : ",\n");
            first = false;
            event(e, p, tidOf.getOrDefault(e.thread(), 0), e.startNanos() - offset - origin, out);
        }
        return first;
    }

    /** The part's threads, the one that ran the program ({@link TraceKind#RUN}) first, the others by name. */
    private static Map<Long, String> threadsInOrder(TracePart p) {
        Map<Long, String> ordered = new LinkedHashMap<>();
        p.events().stream().filter(e -> e.kind() == TraceKind.RUN).findFirst()
                .ifPresent(run -> ordered.put(run.thread(), p.threads().getOrDefault(run.thread(), "program")));
        p.threads().entrySet().stream().sorted(Map.Entry.comparingByValue())
                .forEach(t -> ordered.putIfAbsent(t.getKey(), t.getValue()));
        return ordered;
    }

    private static void event(TracePart.Event e, TracePart p, int tid, long startNanos, Writer out)
            throws IOException {
        TraceKind k = e.kind();
        StringBuilder s = new StringBuilder(160);
        s.append("{\"name\":\"").append(k.title()).append("\",\"cat\":\"").append(k.category())
                .append("\",\"ph\":\"").append(k.instant() ? "i\",\"s\":\"t" : "X").append("\",\"pid\":")
                .append(p.rank()).append(",\"tid\":").append(tid).append(",\"ts\":").append(micros(startNanos));
        if (!k.instant()) {
            s.append(",\"dur\":").append(micros(e.durationNanos()));
        }
        s.append(",\"args\":{\"incarnation\":").append(p.incarnation());
        if (k.peerArg() != null && e.peer() >= 0) {
            s.append(",\"").append(k.peerArg()).append("\":").append(e.peer());
        }
        if (e.tag() >= 0) {
            s.append(",\"tag\":").append(e.tag());
        }
        if (e.bytes() >= 0) {
            s.append(",\"bytes\":").append(e.bytes());
        }
        if (k.seqArg() != null && e.seq() >= 0) {
            s.append(",\"").append(k.seqArg()).append("\":").append(e.seq());
        }
        if (e.failed()) {
            s.append(",\"failed\":true");
        }
        out.write(s.append("}}").toString());
    }

    /** Microseconds with three decimals: the nanoseconds. */
    private static String micros(long nanos) {
        return String.format(Locale.ROOT, "%d.%03d", nanos / 1000, Math.abs(nanos % 1000));
    }

    /**
     * Per part, the nanoseconds its host's clock is ahead of rank 0's in the same incarnation: 0 on rank 0's host
     * (and for a part whose HELLO exchange with rank 0 is missing), else its host's median estimate.
     */
    static Map<TracePart, Long> offsets(List<TracePart> parts) {
        Map<TracePart, Long> offsets = new IdentityHashMap<>();
        Map<Long, TracePart> rankZero = new HashMap<>();
        for (TracePart p : parts) {
            if (p.rank() == 0) {
                rankZero.put(p.incarnation(), p);
            }
        }
        Map<String, List<Long>> byHost = new HashMap<>();
        for (TracePart p : parts) {
            TracePart zero = rankZero.get(p.incarnation());
            Long estimate = zero == null || sameHost(zero, p) ? null : estimate(zero, p);
            if (estimate != null) {
                byHost.computeIfAbsent(p.incarnation() + " " + p.host(), h -> new ArrayList<>()).add(estimate);
            }
        }
        for (TracePart p : parts) {
            List<Long> estimates = byHost.get(p.incarnation() + " " + p.host());
            TracePart zero = rankZero.get(p.incarnation());
            offsets.put(p, estimates == null || zero == null || sameHost(zero, p) ? 0L : median(estimates));
        }
        return offsets;
    }

    /** The NTP estimate of {@code p}'s clock against rank 0's, or null when a time of their exchange is missing. */
    static Long estimate(TracePart zero, TracePart p) {
        int r = p.rank();
        long sentR = p.helloSentNanos()[0];
        long checkedR = p.helloReceivedNanos()[0];
        long sent0 = zero.helloSentNanos().length > r ? zero.helloSentNanos()[r] : 0;
        long got0 = zero.helloReceivedNanos().length > r ? zero.helloReceivedNanos()[r] : 0;
        if (sentR == 0 || checkedR == 0 || sent0 == 0 || got0 == 0) {
            return null;
        }
        return ((sentR - got0) + (checkedR - sent0)) / 2;
    }

    private static boolean sameHost(TracePart a, TracePart b) {
        return a.host().equals(b.host()) || loopback(a.host()) && loopback(b.host());
    }

    private static boolean loopback(String host) {
        return host.equals("localhost") || host.startsWith("127.");
    }

    private static long median(List<Long> values) {
        List<Long> sorted = new ArrayList<>(values);
        sorted.sort(null);
        return sorted.get(sorted.size() / 2);
    }

    /** JSON strings. */
    private static final class Json {
        private final Writer out;

        Json(Writer out) {
            this.out = out;
        }

        void string(String s) throws IOException {
            StringBuilder b = new StringBuilder(s.length() + 2).append('"');
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c == '"' || c == '\\') {
                    b.append('\\').append(c);
                } else if (c < 0x20) {
                    b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                } else {
                    b.append(c);
                }
            }
            out.write(b.append('"').toString());
        }
    }
}
