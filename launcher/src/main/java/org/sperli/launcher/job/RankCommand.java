package org.sperli.launcher.job;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.sperli.crypto.AccpLibrary;

/**
 * The command that starts one rank, {@code sperli-rankd} or any other implementation given with {@code --rankd CMD}
 * (which must read the description line on stdin and use the documented exit statuses). Its arguments are always
 * {@code [--deny-hosts FILE] --jar-sha256 HEX [--checkpoint-dir DIR [--checkpoint-wait SECONDS]] [--tls-engine NAME]
 * [--trace EVENTS] [--collectives star|mesh] JAR [job args...]}
 * ({@code --tls-engine} only when the operator chose an engine, {@code --trace} only when tracing,
 * {@code --collectives} only when the operator chose a shape); the checkpoint
 * directory is
 * the same absolute path for every rank, local and SSH (protocol section 9.1).
 *
 * <p>Local default: this JVM's {@code java} with this JVM's class path and {@code org.sperli.rankd.Main}, so a local
 * job needs nothing installed; the rank inherits this JVM's temporary directory, starts with
 * {@link AccpLibrary#NATIVE_ACCESS} and {@link RankJvmDefaults},
 * and {@value #JAVA_OPTS_VARIABLE} (blank-separated, as for {@code scripts/sperli-rankd}) adds JVM options after
 * them. SSH default: {@code sperli-rankd} on the remote PATH. {@code --rankd CMD} replaces both: split into words for
 * a local process, passed to the remote shell as written for SSH.
 */
public final class RankCommand {
    /** The rank daemon's main class, run in-process-free as a child JVM for local ranks. */
    public static final String RANKD_MAIN = "org.sperli.rankd.Main";
    /** What SSH ranks run unless --rankd says otherwise. */
    public static final String REMOTE_DEFAULT = "sperli-rankd";
    /** JVM options of local ranks started with the default command. */
    public static final String JAVA_OPTS_VARIABLE = "SPERLI_RANKD_JAVA_OPTS";

    private final List<String> localWords;
    private final NativeCrypto nativeCryptoOrNull;
    private final ClassDataArchive archiveOrNull;
    private final String remoteCommand;
    private final String checkpointDirOrNull;
    private final Long checkpointWaitOrNull;
    private final String tlsEngineOrNull;
    private final Integer traceEventsOrNull;
    private final String collectivesOrNull;
    private final RankExports exports;

    private RankCommand(List<String> localWords, NativeCrypto nativeCryptoOrNull, ClassDataArchive archiveOrNull,
                        String remoteCommand, String checkpointDirOrNull, Long checkpointWaitOrNull,
                        String tlsEngineOrNull, Integer traceEventsOrNull, String collectivesOrNull,
                        RankExports exports) {
        this.traceEventsOrNull = traceEventsOrNull;
        this.collectivesOrNull = collectivesOrNull;
        this.localWords = List.copyOf(localWords);
        this.nativeCryptoOrNull = nativeCryptoOrNull;
        this.archiveOrNull = archiveOrNull;
        this.remoteCommand = remoteCommand;
        this.checkpointDirOrNull = checkpointDirOrNull;
        this.checkpointWaitOrNull = checkpointWaitOrNull;
        this.tlsEngineOrNull = tlsEngineOrNull;
        this.exports = exports;
    }

    /**
     * The defaults, or {@code --rankd CMD} for local and SSH ranks alike when {@code overrideOrNull} is given;
     * {@code env} supplies {@value #JAVA_OPTS_VARIABLE}.
     */
    public static RankCommand of(String overrideOrNull, Map<String, String> env) {
        if (overrideOrNull != null) {
            return new RankCommand(CommandWords.split(overrideOrNull), null, null, overrideOrNull.strip(), null, null,
                    null, null, null, RankExports.none());
        }
        List<String> words = new ArrayList<>();
        words.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        words.add(AccpLibrary.NATIVE_ACCESS);
        words.addAll(RankJvmDefaults.OPTIONS);
        words.addAll(RankJvmDefaults.forThisHost(RankJvmDefaults.THP_MODE));
        String options = env.getOrDefault(JAVA_OPTS_VARIABLE, "").strip();
        if (!options.isEmpty()) {
            words.addAll(List.of(options.split("\\s+")));
        }
        words.add("-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"));
        words.addAll(List.of("-cp", System.getProperty("java.class.path"), RANKD_MAIN));
        return new RankCommand(words, new NativeCrypto(env), ClassDataArchive.ofThisJvm().orElse(null),
                REMOTE_DEFAULT, null, null, null, null, null, RankExports.none());
    }

    /**
     * This command passing {@code --checkpoint-dir} to every rank, or not when {@code dirOrNull} is null. A relative
     * directory is made absolute against the launcher's working directory, so that every host gets the same path.
     */
    public RankCommand withCheckpointDir(Path dirOrNull) {
        return withCheckpointDir(dirOrNull, null);
    }

    /**
     * As {@link #withCheckpointDir(Path)}, and {@code --checkpoint-wait SECONDS} to every rank when
     * {@code waitSecondsOrNull} is given (not otherwise, so that another rank implementation sees the documented
     * arguments); only with a checkpoint directory, since it bounds the waits of checkpoints and resumes.
     */
    public RankCommand withCheckpointDir(Path dirOrNull, Long waitSecondsOrNull) {
        return new RankCommand(localWords, nativeCryptoOrNull, archiveOrNull, remoteCommand,
                dirOrNull == null ? null : dirOrNull.toAbsolutePath().normalize().toString(),
                dirOrNull == null ? null : waitSecondsOrNull, tlsEngineOrNull, traceEventsOrNull, collectivesOrNull,
                exports);
    }

    /**
     * This command passing {@code --tls-engine NAME} to every rank, or not when {@code nameOrNull} is null (the
     * operator chose none: each rank then takes its own environment's choice, auto by default).
     */
    public RankCommand withTlsEngine(String nameOrNull) {
        return new RankCommand(localWords, nativeCryptoOrNull, archiveOrNull, remoteCommand, checkpointDirOrNull,
                checkpointWaitOrNull, nameOrNull, traceEventsOrNull, collectivesOrNull, exports);
    }

    /**
     * This command setting {@code exports} ({@code -x}) in every rank's environment: on top of the inherited one for
     * local ranks ({@link LocalRanks}), as the only variables the launcher sends for SSH ranks ({@link #remoteLine}).
     */
    public RankCommand withExports(RankExports exports) {
        return new RankCommand(localWords, nativeCryptoOrNull, archiveOrNull, remoteCommand, checkpointDirOrNull,
                checkpointWaitOrNull, tlsEngineOrNull, traceEventsOrNull, collectivesOrNull, exports);
    }

    /**
     * This command passing {@code --trace EVENTS} to every rank ({@code sperli run --trace}), or not when
     * {@code eventsOrNull} is null (untraced ranks see the arguments they always saw).
     */
    public RankCommand withTrace(Integer eventsOrNull) {
        return new RankCommand(localWords, nativeCryptoOrNull, archiveOrNull, remoteCommand, checkpointDirOrNull,
                checkpointWaitOrNull, tlsEngineOrNull, eventsOrNull, collectivesOrNull, exports);
    }

    /**
     * This command passing {@code --collectives SHAPE} ({@code star} or {@code mesh}) to every rank, or not when
     * {@code shapeOrNull} is null: the ranks then offer the mesh, and other rank implementations see the arguments
     * they always saw.
     */
    public RankCommand withCollectives(String shapeOrNull) {
        return new RankCommand(localWords, nativeCryptoOrNull, archiveOrNull, remoteCommand, checkpointDirOrNull,
                checkpointWaitOrNull, tlsEngineOrNull, traceEventsOrNull, shapeOrNull, exports);
    }

    /** The variables every rank gets ({@code -x}). */
    public RankExports exports() {
        return exports;
    }

    /** The argument vector of local rank {@code rank}. */
    public List<String> localArgv(int rank, Path denyFileOrNull, JobJar jar, List<String> jobArgs) {
        List<String> argv = new ArrayList<>(localWords);
        // Right after java: an operator's own option of the same name, later on the line, wins.
        if (nativeCryptoOrNull != null && !"jdk".equals(tlsEngineOrNull)) {
            argv.addAll(1, nativeCryptoOrNull.jvmOptions());
        }
        if (archiveOrNull != null) {
            argv.addAll(1, archiveOrNull.rankOptions(rank, argv));
        }
        if (denyFileOrNull != null) {
            argv.add("--deny-hosts");
            argv.add(denyFileOrNull.toAbsolutePath().toString());
        }
        argv.add("--jar-sha256");
        argv.add(jar.sha256Hex());
        if (checkpointDirOrNull != null) {
            argv.add("--checkpoint-dir");
            argv.add(checkpointDirOrNull);
        }
        if (checkpointWaitOrNull != null) {
            argv.add("--checkpoint-wait");
            argv.add(String.valueOf(checkpointWaitOrNull));
        }
        if (tlsEngineOrNull != null) {
            argv.add("--tls-engine");
            argv.add(tlsEngineOrNull);
        }
        if (traceEventsOrNull != null) {
            argv.add("--trace");
            argv.add(String.valueOf(traceEventsOrNull));
        }
        if (collectivesOrNull != null) {
            argv.add("--collectives");
            argv.add(collectivesOrNull);
        }
        argv.add(jar.path().toString());
        argv.addAll(jobArgs);
        return argv;
    }

    /**
     * Whether ranks run the rank daemon, a JVM, with the defaults (no {@code --rankd}): then a host is judged for the
     * memory of its ranks, and an SSH host without {@value #REMOTE_DEFAULT} gets the rank daemon staged, its ranks
     * another command ({@link #remoteLine(String, String, String, List)}).
     */
    public boolean isRankDaemon() {
        // Only the defaults carry the native library lookup of local ranks; --rankd CMD never does.
        return nativeCryptoOrNull != null;
    }

    /**
     * The command line an SSH rank's remote shell runs; the job arguments are quoted for it, and the {@code -x}
     * variables come first as {@code env 'NAME=VALUE' ...}.
     */
    public String remoteLine(String jarSha256Hex, String remoteJar, List<String> jobArgs) {
        return remoteLine(remoteCommand, jarSha256Hex, remoteJar, jobArgs);
    }

    /** As {@link #remoteLine(String, String, List)}, with {@code rankCommand} starting the rank instead. */
    public String remoteLine(String rankCommand, String jarSha256Hex, String remoteJar, List<String> jobArgs) {
        StringBuilder line = new StringBuilder(exports.remotePrefix()).append(rankCommand)
                .append(" --jar-sha256 ").append(jarSha256Hex);
        if (checkpointDirOrNull != null) {
            line.append(" --checkpoint-dir ").append(CommandWords.quote(checkpointDirOrNull));
        }
        if (checkpointWaitOrNull != null) {
            line.append(" --checkpoint-wait ").append(checkpointWaitOrNull);
        }
        if (tlsEngineOrNull != null) {
            line.append(" --tls-engine ").append(tlsEngineOrNull);
        }
        if (traceEventsOrNull != null) {
            line.append(" --trace ").append(traceEventsOrNull);
        }
        if (collectivesOrNull != null) {
            line.append(" --collectives ").append(collectivesOrNull);
        }
        line.append(' ').append(CommandWords.quote(remoteJar));
        for (String arg : jobArgs) {
            line.append(' ').append(CommandWords.quote(arg));
        }
        return line.toString();
    }

    @Override
    public String toString() {
        return "RankCommand[local=" + localWords + ", remote=" + remoteCommand
                + (checkpointDirOrNull == null ? "" : ", checkpoint dir=" + checkpointDirOrNull)
                + (exports.isEmpty() ? "" : ", exports=" + exports.variables().keySet()) + "]";
    }

    /**
     * ACCP's unpacked library for local ranks ({@link AccpLibrary}), looked up when the first local rank starts and
     * then kept: checking the cached copy reads the whole library, which a job on SSH hosts only or on the JDK engine
     * never needs.
     */
    private static final class NativeCrypto {
        private final Map<String, String> env;
        private List<String> options;

        NativeCrypto(Map<String, String> env) {
            this.env = Map.copyOf(env);
        }

        synchronized List<String> jvmOptions() {
            if (options == null) {
                options = AccpLibrary.jvmOptions(env);
            }
            return options;
        }
    }
}
