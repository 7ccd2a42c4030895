package org.sperli.testkit;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.sperli.jvm.Clock;
import org.sperli.protocol.Limits;
import org.sperli.runtime.CollectiveShape;
import org.sperli.trace.RankTrace;

/**
 * What a kit run does: a builder from {@link SperliTestKit}, whose {@link #run} starts the ranks and returns once the
 * job ended. Defaults: 2 ranks, no arguments, a time limit of 2 minutes for the whole run, a silence limit of 10 s,
 * checkpoints off, no restart, every rank line also shown on the test's output as {@code [rank N] line}.
 */
public final class KitJob {
    private final RankProgram.Source source;
    private final Faults faults = new Faults();
    private int ranks = 2;
    private List<String> args = List.of();
    private Duration timeout = Duration.ofMinutes(2);
    private Duration silence = Duration.ofSeconds(10);
    private Path checkpointDir;
    private Duration checkpointWait;
    private int restartMax;
    private boolean echo = true;
    private long diskBytesLeft = -1;
    private Path trace;
    private int traceEvents = RankTrace.DEFAULT_EVENTS;
    private CollectiveShape collectives = CollectiveShape.MESH;

    KitJob(RankProgram.Source source) {
        this.source = source;
    }

    /** Ranks of the job, 1 to 4096 (each a thread and a port; a few dozen are practical). */
    public KitJob ranks(int ranks) {
        if (ranks < Limits.MIN_SIZE || ranks > Limits.MAX_SIZE) {
            throw new IllegalArgumentException("ranks " + ranks + ", allowed 1..4096");
        }
        this.ranks = ranks;
        return this;
    }

    /** The job's arguments, as given to {@code sperli run} after the jar. */
    public KitJob args(String... args) {
        this.args = List.copyOf(Arrays.asList(args));
        return this;
    }

    /** The job's arguments. */
    public KitJob args(List<String> args) {
        this.args = List.copyOf(args);
        return this;
    }

    /**
     * The longest the whole run may take, restarts included; then every rank still running is stopped (as the
     * launcher's SIGTERM does) and the result says the time was up.
     */
    public KitJob timeout(Duration timeout) {
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout " + timeout + ", expected above zero");
        }
        this.timeout = timeout;
        return this;
    }

    /** The job's silence limit ({@code --silence-ms}), 2 s to 1 h. */
    public KitJob silence(Duration silence) {
        if (silence.toMillis() < Limits.MIN_SILENCE_MS || silence.toMillis() > Limits.MAX_SILENCE_MS) {
            throw new IllegalArgumentException("silence " + silence + ", allowed 2 s to 1 h");
        }
        this.silence = silence;
        return this;
    }

    /**
     * Checkpoints on, in {@code dir} ({@code --checkpoint-dir}): the ranks share it, as local ranks of
     * {@code sperli run} do. The files of the run are under {@code dir/<job id>/}.
     */
    public KitJob checkpointDir(Path dir) {
        this.checkpointDir = Objects.requireNonNull(dir, "dir");
        return this;
    }

    /** How long a checkpoint or resume waits for a peer ({@code --checkpoint-wait}); default 10 minutes. */
    public KitJob checkpointWait(Duration wait) {
        this.checkpointWait = Objects.requireNonNull(wait, "wait");
        return this;
    }

    /**
     * Restart the whole job at most {@code restartMax} times after a rank fails, as {@code sperli run --restart-max}
     * does: incarnation + 1, the same job id, CA and key, new certificates, tokens and ports, and with a checkpoint
     * directory a resume from the newest COMMIT before the program starts.
     */
    public KitJob restartMax(int restartMax) {
        if (restartMax < 0) {
            throw new IllegalArgumentException("restartMax " + restartMax + " is negative");
        }
        this.restartMax = restartMax;
        return this;
    }

    /**
     * Kill rank {@code rank} as it enters its {@code call}-th communication call (sends, receives, their nonblocking
     * forms, collectives and checkpoints count; 1 is the first), as SIGKILL ends a rank process: no BYE, no ABORT,
     * its connections closed at once, its program unwound. Once in the run: a restarted job passes the same call.
     */
    public KitJob killAtCall(int rank, long call) {
        faults.killAtCall(rank, call);
        return this;
    }

    /** Kill rank {@code rank} as {@link #killAtCall} does, as it enters the checkpoint of epoch {@code epoch}. */
    public KitJob killAtCheckpoint(int rank, long epoch) {
        faults.killAtCheckpoint(rank, epoch);
        return this;
    }

    /**
     * Rank {@code rank}'s messages leave {@code delay} late: the kit waits that long before each of its sends,
     * isends and collective calls (a slow link or a slow rank, as its peers see it). In every incarnation.
     */
    public KitJob delayMessages(int rank, Duration delay) {
        faults.delay(rank, delay);
        return this;
    }

    /**
     * The checkpoint directory's disk has {@code bytesLeft} bytes free for the whole run: once the ranks have written
     * that many, every write there fails with {@code No space left on device} as on a full disk (H1619 for the
     * checkpoint that meets it). A stand-in file system over the directory (see the kit's {@code FullDisk}); needs
     * {@link #checkpointDir}.
     */
    public KitJob fillCheckpointDisk(long bytesLeft) {
        if (bytesLeft < 0) {
            throw new IllegalArgumentException("bytes left " + bytesLeft + " is negative");
        }
        this.diskBytesLeft = bytesLeft;
        return this;
    }

    /**
     * Trace the run into {@code file} ({@code sperli run --trace FILE}): Chrome's Trace Event format, which Perfetto
     * and {@code chrome://tracing} open; one track per rank, a span for every call of the program, each collective
     * with its sequence number, the checkpoint and resume phases and the connection setup, every incarnation of the
     * run on the same tracks. Written when the run ends, however it ends.
     */
    public KitJob trace(Path file) {
        this.trace = Objects.requireNonNull(file, "file");
        return this;
    }

    /**
     * How many events each rank's trace keeps, the newest (default 65536, rounded up to a power of two; at most
     * 1048576): the trace of a long run stays bounded.
     */
    public KitJob traceEvents(int events) {
        if (events < 1 || events > RankTrace.MAX_EVENTS) {
            throw new IllegalArgumentException("trace events " + events + ", allowed 1.." + RankTrace.MAX_EVENTS);
        }
        this.traceEvents = events;
        return this;
    }

    /**
     * The collectives' shape every rank offers ({@code sperli run --collectives}): {@code mesh} (the default; the
     * job uses it as all ranks offer it) or {@code star}, the v1 star. Results are the same to the bit either way.
     */
    public KitJob collectives(String shape) {
        this.collectives = CollectiveShape.of(shape);
        return this;
    }

    /** The rank lines are not shown on the test's output (they are in the result all the same). */
    public KitJob quiet() {
        this.echo = false;
        return this;
    }

    /** Runs the job and returns how it ended; never throws for a job that failed (see {@link JobResult}). */
    public JobResult run() {
        faults.check(ranks);
        faults.rearm();
        if (diskBytesLeft >= 0 && checkpointDir == null) {
            throw new IllegalStateException("fillCheckpointDisk needs a checkpointDir");
        }
        // The run's one clock, as a rank process takes it where it starts: nothing in the kit reads the system's own.
        return new JobRun(this, Clock.SYSTEM).run();
    }

    RankProgram.Source source() {
        return source;
    }

    Faults faults() {
        return faults;
    }

    int size() {
        return ranks;
    }

    CollectiveShape collectives() {
        return collectives;
    }

    List<String> arguments() {
        return args;
    }

    Duration timeoutBound() {
        return timeout;
    }

    Duration silenceLimit() {
        return silence;
    }

    Path checkpointDirOrNull() {
        return checkpointDir;
    }

    /** Bytes free on the checkpoint directory's disk for the run, or -1: as much as the real disk has. */
    long diskBytesLeft() {
        return diskBytesLeft;
    }

    Duration checkpointWaitOrNull() {
        return checkpointWait;
    }

    int restarts() {
        return restartMax;
    }

    /** The trace file, or null: not traced. */
    Path traceOrNull() {
        return trace;
    }

    int traceEvents() {
        return traceEvents;
    }

    boolean echo() {
        return echo;
    }
}
