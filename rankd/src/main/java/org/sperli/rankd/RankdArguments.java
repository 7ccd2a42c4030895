package org.sperli.rankd;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.sperli.runtime.CheckpointSettings;
import org.sperli.runtime.CollectiveShape;
import org.sperli.trace.RankTrace;

/**
 * The command line of {@code sperli-rankd [--deny-hosts FILE] [--jar-sha256 HEX] [--checkpoint-dir DIR]
 * [--checkpoint-wait SECONDS] [--tls-engine auto|jdk|accp] [--trace EVENTS] [--collectives star|mesh] JAR
 * [job args...]} (protocol section
 * 13.1). Options come
 * before the jar; everything after the jar belongs to the job, even words that look like options. {@code --} ends
 * the options (for a jar whose name starts with a dash).
 *
 * @param denyFileOrNull    the operator's deny file, or null
 * @param jarSha256OrNull   the SHA-256 the launcher names for the jar, 64 lower-case hex digits, or null (unchecked)
 * @param checkpointDirOrNull the checkpoint directory ({@code <dir>} of protocol section 9.1), or null: without one the
 *                          job cannot checkpoint and a restart starts over
 * @param checkpointWaitOrNull the checkpoint wait limit ({@code --checkpoint-wait}, whole seconds), or null: the
 *                          default of {@link org.sperli.runtime.CheckpointSettings}
 * @param tlsEngineOrNull   the TLS engine asked for ({@code auto}, {@code jdk}, {@code accp}), or null: the
 *                          environment's {@code SPERLI_TLS_ENGINE}, else auto
 * @param traceEventsOrNull  {@code --trace EVENTS}: trace the rank into a ring of that many events and hand the
 *                          trace to the launcher on standard error when the rank ends; null: not traced
 * @param help              {@code --help} was given: print {@link #USAGE} and exit 0
 * @param collectivesOrNull {@code --collectives}: the shape this rank offers in its HELLO; null: the mesh
 */
public record RankdArguments(Path denyFileOrNull, String jarSha256OrNull, Path checkpointDirOrNull,
                             Duration checkpointWaitOrNull, String tlsEngineOrNull, Integer traceEventsOrNull,
                             Path jar, List<String> jobArgs, boolean help, CollectiveShape collectivesOrNull) {

    public static final String USAGE = "usage: sperli-rankd [--deny-hosts FILE] [--jar-sha256 HEX]"
            + " [--checkpoint-dir DIR] [--checkpoint-wait SECONDS] [--tls-engine auto|jdk|accp] [--trace EVENTS]"
            + " [--collectives star|mesh] JAR [job args...]"
            + " (the job description is read as one line from standard input)";

    private static final int SHA256_HEX_DIGITS = 64;

    public RankdArguments {
        jobArgs = List.copyOf(jobArgs);
    }

    /** Arguments without {@code --collectives}: the rank offers the mesh. */
    public RankdArguments(Path denyFileOrNull, String jarSha256OrNull, Path checkpointDirOrNull,
                          Duration checkpointWaitOrNull, String tlsEngineOrNull, Integer traceEventsOrNull,
                          Path jar, List<String> jobArgs, boolean help) {
        this(denyFileOrNull, jarSha256OrNull, checkpointDirOrNull, checkpointWaitOrNull, tlsEngineOrNull,
                traceEventsOrNull, jar, jobArgs, help, null);
    }

    /** Parses {@code args}; a line rankd cannot use is an {@link IllegalArgumentException} naming the fault. */
    public static RankdArguments parse(String[] args) {
        Path denyFile = null;
        String sha256 = null;
        Path checkpointDir = null;
        String tlsEngine = null;
        Duration checkpointWait = null;
        Integer traceEvents = null;
        CollectiveShape collectives = null;
        int i = 0;
        while (i < args.length) {
            String arg = args[i];
            if (arg.equals("--")) {
                i++;
                break;
            }
            if (arg.equals("-h") || arg.equals("--help")) {
                return new RankdArguments(null, null, null, null, null, null, null, List.of(), true);
            }
            if (!arg.startsWith("-") || arg.equals("-")) {
                break;
            }
            String name = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
            String value;
            if (arg.contains("=")) {
                value = arg.substring(arg.indexOf('=') + 1);
                i++;
            } else if (i + 1 < args.length) {
                value = args[i + 1];
                i += 2;
            } else {
                throw new IllegalArgumentException("option " + name + " needs a value");
            }
            switch (name) {
                case "--deny-hosts" -> denyFile = Path.of(nonEmpty(name, value));
                case "--jar-sha256" -> sha256 = sha256(value);
                case "--checkpoint-dir" -> checkpointDir = Path.of(nonEmpty(name, value));
                case "--tls-engine" -> tlsEngine = nonEmpty(name, value);
                case "--checkpoint-wait" -> checkpointWait = seconds(name, value);
                case "--trace" -> traceEvents = events(name, value);
                case "--collectives" -> collectives = CollectiveShape.of(value);
                default -> throw new IllegalArgumentException("unknown option " + printable(name));
            }
        }
        if (i >= args.length) {
            throw new IllegalArgumentException("no JAR given");
        }
        Path jar = Path.of(nonEmpty("JAR", args[i]));
        List<String> jobArgs = Arrays.asList(args).subList(i + 1, args.length);
        return new RankdArguments(denyFile, sha256, checkpointDir, checkpointWait, tlsEngine, traceEvents, jar,
                jobArgs, false, collectives);
    }

    /** Whole seconds, 1 up to {@link CheckpointSettings#MAX_WAIT_LIMIT}. */
    private static Duration seconds(String name, String value) {
        long max = CheckpointSettings.MAX_WAIT_LIMIT.toSeconds();
        long n;
        try {
            n = Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " " + printable(value) + " is not a whole number of seconds");
        }
        if (n < 1 || n > max) {
            throw new IllegalArgumentException(name + " " + n + " is not in 1.." + max + " seconds");
        }
        return Duration.ofSeconds(n);
    }

    /** A trace ring's events, 1 up to {@link RankTrace#MAX_EVENTS}. */
    private static int events(String name, String value) {
        int n;
        try {
            n = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " " + printable(value) + " is not a whole number of events");
        }
        if (n < 1 || n > RankTrace.MAX_EVENTS) {
            throw new IllegalArgumentException(name + " " + n + " is not in 1.." + RankTrace.MAX_EVENTS + " events");
        }
        return n;
    }

    private static String nonEmpty(String name, String value) {
        if (value.isEmpty()) {
            throw new IllegalArgumentException(name + " is empty");
        }
        return value;
    }

    private static String sha256(String value) {
        String hex = value.toLowerCase(Locale.ROOT);
        boolean hexDigits = hex.chars().allMatch(c -> (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'));
        if (hex.length() != SHA256_HEX_DIGITS || !hexDigits) {
            throw new IllegalArgumentException("--jar-sha256 has " + value.length() + " characters, expected "
                    + SHA256_HEX_DIGITS + " hex digits");
        }
        return hex;
    }

    /** An operator's word for a message: printable ASCII only, bounded. */
    static String printable(String s) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < s.length() && i < 80; i++) {
            char c = s.charAt(i);
            out.append(c >= 0x20 && c < 0x7f ? c : '?');
        }
        return out.append(s.length() > 80 ? "..." : "").toString();
    }
}
