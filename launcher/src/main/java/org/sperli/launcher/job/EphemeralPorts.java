package org.sperli.launcher.job;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Whether a host's rank ports lie outside its ephemeral port range ({@link EphemeralRange}), judged before anything
 * starts: this host's from its own files, an SSH host's from the line its probe printed ({@link #PROBE_SCRIPT}). 64
 * local ranks on ports 47000-47063, inside Linux's default range 32768-60999, failed one run in three: a rank that
 * bound its port late found it taken as the source port of a dial. Such a job is refused with one line naming the
 * ports, the range and the remedy. Where the range is unknown (not Linux, a file that cannot be read or parsed)
 * nothing is judged.
 */
public final class EphemeralPorts {
    /** Where Linux keeps both files. */
    public static final Path PROC_IPV4 = Path.of("/proc/sys/net/ipv4");
    /** The range, {@code LOW<tab>HIGH}. */
    public static final String RANGE_FILE = "ip_local_port_range";
    /** Ports reserved out of the range, {@code 8080,9148-9150}; blank for none. */
    public static final String RESERVED_FILE = "ip_local_reserved_ports";
    /** The first word of the probe's line with a host's range. */
    public static final String PROBE_WORD = "sperli-ports";
    /**
     * Prints {@code sperli-ports LOW HIGH [RESERVED]} on a host that has the range, nothing elsewhere; the lines
     * after it run either way. The files are read with {@code cat}, not the shell's {@code read}: dash reads a byte at
     * a time, and a sysctl file answers a read at any offset but 0 with its end (as {@code readAtOnce} says), so
     * {@code read} got {@code 3} and failed.
     */
    public static final String PROBE_SCRIPT = "eph=$(cat " + PROC_IPV4.resolve(RANGE_FILE) + " 2>/dev/null) && echo \""
            + PROBE_WORD + " $eph $(cat " + PROC_IPV4.resolve(RESERVED_FILE) + " 2>/dev/null)\"; ";
    /** The most of a file read: a reservation list as long is no list an administrator wrote. */
    static final int MAX_FILE = 64 * 1024;
    private static final String SYSCTL = "sysctl net.ipv4." + RESERVED_FILE;

    private EphemeralPorts() {
    }

    /** This host's range; empty where it has none that can be read. */
    public static Optional<EphemeralRange> ofThisHost() {
        return read(PROC_IPV4);
    }

    /** The range from {@link #RANGE_FILE} and {@link #RESERVED_FILE} in {@code dir}; empty when the first is bad. */
    public static Optional<EphemeralRange> read(Path dir) {
        String range;
        try {
            range = readAtOnce(dir.resolve(RANGE_FILE));
        } catch (IOException | RuntimeException unreadable) {
            return Optional.empty();
        }
        String reserved;
        try {
            reserved = readAtOnce(dir.resolve(RESERVED_FILE));
        } catch (IOException | RuntimeException unreadable) {
            // A kernel before 2.6.35 has no reservations.
            reserved = "";
        }
        return parse(range, reserved);
    }

    /**
     * The text of {@code file}, read from its start in reads as large as {@link #MAX_FILE}. A sysctl file answers a
     * read at any offset but 0 with its end, and {@link Files#readString}, seeing the size 0 that /proc gives, reads
     * one byte first: it read {@code 3} of {@code 32768 60999}.
     */
    private static String readAtOnce(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            byte[] text = new byte[MAX_FILE];
            int length = 0;
            int n;
            while (length < text.length && (n = in.read(text, length, text.length - length)) > 0) {
                length += n;
            }
            return new String(text, 0, length, StandardCharsets.US_ASCII);
        }
    }

    /** The range in the form of {@link #RANGE_FILE} ({@code "32768\t60999\n"}); empty for anything else. */
    public static Optional<EphemeralRange> parse(String range) {
        return parse(range, "");
    }

    /**
     * The range from the contents of both files. A reservation list that cannot be read counts as none: the job may
     * then be refused for a port that was reserved, never started on one that was not.
     */
    public static Optional<EphemeralRange> parse(String range, String reserved) {
        String[] ends = range.strip().split("\\s+");
        if (ends.length != 2) {
            return Optional.empty();
        }
        int low = PortSpan.port(ends[0]);
        int high = PortSpan.port(ends[1]);
        if (low < 0 || high < low) {
            return Optional.empty();
        }
        return Optional.of(new EphemeralRange(new PortSpan(low, high), PortSpan.parseList(reserved).orElse(List.of())));
    }

    /** The range a line of {@link #PROBE_SCRIPT} gives; empty for any other line, or a garbled one. */
    public static Optional<EphemeralRange> parseProbeLine(String line) {
        String text = line.strip();
        if (!text.startsWith(PROBE_WORD + " ")) {
            return Optional.empty();
        }
        String[] words = text.substring(PROBE_WORD.length()).strip().split("\\s+", 3);
        if (words.length < 2) {
            return Optional.empty();
        }
        return parse(words[0] + " " + words[1], words.length == 3 ? words[2] : "");
    }

    /** Why the local ranks cannot have {@code ports} on this host with its {@code range}; empty if they can. */
    public static Optional<String> localRefusal(List<Integer> ports, Optional<EphemeralRange> range) {
        return refusal(ports, range, "of the local ranks", "this host's", "");
    }

    /** Why the ranks on SSH host {@code host} cannot have {@code ports} with its {@code range}; empty if they can. */
    public static Optional<String> refusal(String host, List<Integer> ports, Optional<EphemeralRange> range) {
        return refusal(ports, range, "of the ranks on host " + host, "its", " there");
    }

    private static Optional<String> refusal(List<Integer> ports, Optional<EphemeralRange> range, String whose,
                                            String hostWord, String there) {
        if (range.isEmpty() || range.get().taken(ports).isEmpty()) {
            return Optional.empty();
        }
        List<Integer> taken = range.get().taken(ports);
        PortSpan span = range.get().ports();
        // Every port-base rank of this host lies in base..base+n-1, however the explicit ports fall among them.
        int highestBase = span.first() - ports.size();
        String move = highestBase >= 1 ? "give --port-base " + highestBase + " or lower (and host:port entries below "
                + span.first() + ")" : "give the ranks host:port entries outside it";
        return Optional.of((taken.size() == 1 ? "port " : "ports ") + PortSpan.describe(taken) + " " + whose
                + (taken.size() == 1 ? " lies" : " lie") + " in " + hostWord + " ephemeral port range " + span.text()
                + " (" + PROC_IPV4.resolve(RANGE_FILE) + there + "), from which the kernel gives outgoing"
                + " connections their ports, so a rank could find its port taken: nothing was started; " + move
                + ", or reserve the ports" + there + " with " + SYSCTL);
    }
}
