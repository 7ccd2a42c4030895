package org.sperli.launcher.job;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/** Ports {@code first..last}, both included: a piece of a port range, or a run of rank ports in a message. */
public record PortSpan(int first, int last) {
    /** How many runs a message names before it only counts the rest: 4096 ports should not make a page. */
    static final int RUNS_SHOWN = 4;

    public boolean contains(int port) {
        return first <= port && port <= last;
    }

    /** {@code first-last}, or the one port. */
    public String text() {
        return first == last ? Integer.toString(first) : first + "-" + last;
    }

    /** {@code ports} (any order, repeats ignored) as runs of consecutive ports, lowest first. */
    public static List<PortSpan> runs(Collection<Integer> ports) {
        List<PortSpan> runs = new ArrayList<>();
        int first = -1;
        int last = -1;
        for (int port : new TreeSet<>(ports)) {
            if (first >= 0 && port == last + 1) {
                last = port;
                continue;
            }
            if (first >= 0) {
                runs.add(new PortSpan(first, last));
            }
            first = port;
            last = port;
        }
        if (first >= 0) {
            runs.add(new PortSpan(first, last));
        }
        return runs;
    }

    /** {@code ports} as their runs for a message: {@code 23000-23063, 23100}, the first few and a count of the rest. */
    public static String describe(Collection<Integer> ports) {
        List<PortSpan> runs = runs(ports);
        List<String> shown = new ArrayList<>();
        int counted = 0;
        for (PortSpan run : runs.subList(0, Math.min(RUNS_SHOWN, runs.size()))) {
            shown.add(run.text());
            counted += run.last - run.first + 1;
        }
        int rest = new TreeSet<>(ports).size() - counted;
        return String.join(", ", shown) + (rest > 0 ? " and " + rest + " more" : "");
    }

    /**
     * A list in the kernel's form ({@code 8080,9148-9150}, as in {@code ip_local_reserved_ports}); blank is none,
     * and anything else than ports in 1..65535 is unknown (empty).
     */
    public static Optional<List<PortSpan>> parseList(String text) {
        String list = text.strip();
        List<PortSpan> spans = new ArrayList<>();
        if (list.isEmpty()) {
            return Optional.of(spans);
        }
        for (String item : list.split(",", -1)) {
            String[] ends = item.strip().split("-", -1);
            if (ends.length > 2) {
                return Optional.empty();
            }
            int first = port(ends[0]);
            int last = port(ends[ends.length - 1]);
            if (first < 0 || last < first) {
                return Optional.empty();
            }
            spans.add(new PortSpan(first, last));
        }
        return Optional.of(List.copyOf(spans));
    }

    /** The port {@code text} names, or -1 for anything but a number in 1..65535. */
    static int port(String text) {
        String digits = text.strip();
        if (digits.isEmpty() || digits.length() > 5 || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return -1;
        }
        int port = Integer.parseInt(digits);
        return port >= 1 && port <= 65535 ? port : -1;
    }
}
