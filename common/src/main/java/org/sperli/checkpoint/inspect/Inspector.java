package org.sperli.checkpoint.inspect;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.sperli.checkpoint.CommitFile;
import org.sperli.checkpoint.EpochLayout;
import org.sperli.checkpoint.EpochStore;
import org.sperli.checkpoint.inspect.FileChecks.CommitResult;
import org.sperli.checkpoint.inspect.Inspection.Entry;
import org.sperli.checkpoint.inspect.Inspection.Epoch;
import org.sperli.checkpoint.inspect.Inspection.FileStatus;
import org.sperli.checkpoint.inspect.Inspection.Job;
import org.sperli.checkpoint.inspect.Inspection.JobVerdict;
import org.sperli.checkpoint.inspect.Inspection.LoadFrom;
import org.sperli.checkpoint.inspect.Inspection.Rank;
import org.sperli.checkpoint.inspect.Inspection.RankFile;
import org.sperli.crypto.CompositeSig;
import org.sperli.protocol.JobId;
import org.sperli.protocol.Limits;

/**
 * Reads a checkpoint directory ({@code <dir>/<job id hex>/<epoch>/...}, protocol section 9.1) and reports every job,
 * epoch and file with its verdict, and the epoch a resume would pick ({@link EpochVerdicts}). Nothing is written.
 *
 * <p>The directory given is resolved once; below it nothing is followed: a symbolic link is reported, never read.
 * Per job, the COMMITs are checked newest first; without an expected size the newest COMMIT that holds sets it, so
 * older COMMITs of another size are H1623 as at a resume. The job public key is the one given, else the
 * {@value #PUBLIC_KEY_FILE} rank 0 stores beside the job's checkpoints (which shows integrity, not who signed: anyone
 * who can write the directory can replace both).
 */
public final class Inspector {
    /** What a verdict adds when the signatures were checked against the directory's own {@code job.pub}. */
    static final String SELF_ATTESTED = "; signatures checked against job.pub from this directory itself, which"
            + " whoever can write here can replace with the COMMITs: --public-key FILE checks against a key you trust";

    /** Rank 0's copy of the job public key: 1344 raw bytes in the job directory. */
    public static final String PUBLIC_KEY_FILE = EpochStore.JOB_PUBLIC_KEY;
    /** Entries listed as ignored per directory; beyond this they are only counted. */
    static final int MAX_IGNORED_SHOWN = 50;

    private static final Pattern JOB_DIR = Pattern.compile("[0-9a-f]{32}");
    private static final Pattern RANK_FILE = Pattern.compile("rank-(0|[1-9][0-9]{0,3})\\.ckpt(\\.buddy)?");

    private Inspector() {
    }

    /**
     * What to inspect.
     *
     * @param jobOrNull       only this job, or every job directory
     * @param publicKeyOrNull the job public key (1344 bytes), used instead of {@code job.pub}
     * @param keySource       how to name the key given in reasons (e.g. the option and file)
     * @param sizeOrNull      the job's size, 1..4096, or null to take it from the newest COMMIT that holds
     */
    public record Options(JobId jobOrNull, byte[] publicKeyOrNull, String keySource, Integer sizeOrNull) {
        public Options {
            if (publicKeyOrNull != null) {
                if (publicKeyOrNull.length != CompositeSig.PUBLIC_KEY_LENGTH) {
                    throw new IllegalArgumentException("public key of " + publicKeyOrNull.length + " bytes, expected "
                            + CompositeSig.PUBLIC_KEY_LENGTH);
                }
                publicKeyOrNull = publicKeyOrNull.clone();
                Objects.requireNonNull(keySource, "keySource");
            }
            if (sizeOrNull != null && (sizeOrNull < Limits.MIN_SIZE || sizeOrNull > Limits.MAX_SIZE)) {
                throw new IllegalArgumentException("size=" + sizeOrNull + ", expected 1..4096");
            }
        }

        /** Every job, key from job.pub, size from the COMMITs. */
        public static Options all() {
            return new Options(null, null, null, null);
        }
    }

    /** A directory that cannot be inspected at all: missing, not a directory, or holding no job directory. */
    public static final class NotACheckpointDirectory extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NotACheckpointDirectory(String message) {
            super(message);
        }
    }

    /** Inspects {@code dir}; throws {@link NotACheckpointDirectory} when there is nothing to inspect. */
    public static Inspection inspect(Path dir, Options options) throws IOException {
        Path root;
        try {
            root = dir.toRealPath();
        } catch (NoSuchFileException e) {
            throw new NotACheckpointDirectory(dir + " does not exist");
        }
        if (!Files.isDirectory(root)) {
            throw new NotACheckpointDirectory(dir + " is not a directory");
        }
        List<Job> jobs = new ArrayList<>();
        List<Entry> ignored = new ArrayList<>();
        for (Map.Entry<String, BasicFileAttributes> e : list(root).entrySet()) {
            String name = e.getKey();
            boolean jobName = JOB_DIR.matcher(name).matches();
            if (!jobName) {
                ignored.add(new Entry(name, "not a job directory (32 lower-case hex digits)"));
            } else if (options.jobOrNull() != null && !name.equals(options.jobOrNull().hex())) {
                ignored.add(new Entry(name, "another job (--job " + options.jobOrNull().hex() + ")"));
            } else if (!e.getValue().isDirectory() || e.getValue().isSymbolicLink()) {
                ignored.add(new Entry(name, e.getValue().isSymbolicLink() ? "a symbolic link, not followed"
                        : "not a directory"));
            } else {
                jobs.add(job(root.resolve(name), JobId.parseHex(name), options));
            }
        }
        if (jobs.isEmpty()) {
            if (options.jobOrNull() != null) {
                throw new NotACheckpointDirectory(dir + " holds no checkpoints of job " + options.jobOrNull().hex());
            }
            boolean looksLikeJobDir = JOB_DIR.matcher(String.valueOf(root.getFileName())).matches();
            throw new NotACheckpointDirectory(dir + " is not a checkpoint directory: it holds no job directory"
                    + " (<32 hex digits>/<epoch>/)" + (looksLikeJobDir ? "; it looks like one itself: give its parent"
                    : ""));
        }
        return new Inspection(root.toString(), jobs, capped(ignored));
    }

    private static Job job(Path jobDir, JobId job, Options options) throws IOException {
        List<Entry> ignored = new ArrayList<>();
        TreeMap<Long, Path> epochDirs = new TreeMap<>();
        BasicFileAttributes keyFile = null;
        for (Map.Entry<String, BasicFileAttributes> e : list(jobDir).entrySet()) {
            String name = e.getKey();
            long epoch = EpochLayout.parseEpoch(name);
            if (name.equals(PUBLIC_KEY_FILE)) {
                keyFile = e.getValue();
            } else if (epoch < 0) {
                ignored.add(new Entry(name, "not an epoch directory"));
            } else if (!e.getValue().isDirectory() || e.getValue().isSymbolicLink()) {
                ignored.add(new Entry(name, e.getValue().isSymbolicLink() ? "a symbolic link, not followed"
                        : "not a directory"));
            } else {
                epochDirs.put(epoch, jobDir.resolve(name));
            }
        }
        byte[] key = options.publicKeyOrNull();
        String keySource = options.keySource();
        byte[] stored = storedKey(jobDir.resolve(PUBLIC_KEY_FILE), keyFile, ignored);
        if (key == null && stored != null) {
            key = stored;
            keySource = PUBLIC_KEY_FILE;
        } else if (key != null && stored != null && !Arrays.equals(key, stored)) {
            ignored.add(new Entry(PUBLIC_KEY_FILE, "differs from the key of " + keySource + ", which is used"));
        }
        Long size = options.sizeOrNull() == null ? null : options.sizeOrNull().longValue();
        String sizeSource = size == null ? null : "--size";
        List<Epoch> checked = new ArrayList<>();
        List<CommitResult> commits = new ArrayList<>();
        for (Map.Entry<Long, Path> e : epochDirs.descendingMap().entrySet()) {
            long epoch = e.getKey();
            CommitResult commit = FileChecks.commit(e.getValue().resolve("COMMIT"), job, epoch, size, key);
            if (size == null && commit.holds()) {
                size = commit.report().size();
                sizeSource = "the COMMIT of epoch " + epoch;
            }
            checked.add(epoch(e.getValue(), job, epoch, size, commit));
            commits.add(commit);
        }
        EpochVerdicts.Decision d = EpochVerdicts.decide(checked, commits);
        boolean keyFromDirectory = key != null && options.publicKeyOrNull() == null;
        String reason = keyFromDirectory && d.verdict() == JobVerdict.RESUMABLE ? d.reason() + SELF_ATTESTED
                : d.reason();
        return new Job(job.hex(), size, sizeSource, key == null ? null : keySource, keyFromDirectory,
                d.resumeEpoch(), d.verdict(), d.code(), reason, d.epochs(), capped(ignored));
    }

    private static Epoch epoch(Path epochDir, JobId job, long epoch, Long sizeOrNull, CommitResult commit)
            throws IOException {
        List<Entry> ignored = new ArrayList<>();
        TreeSet<Integer> named = new TreeSet<>();
        for (String name : list(epochDir).keySet()) {
            Matcher m = RANK_FILE.matcher(name);
            if (m.matches()) {
                named.add(Integer.parseInt(m.group(1)));
            } else if (name.endsWith(".tmp")) {
                ignored.add(new Entry(name, "temporary name: a write that did not finish"));
            } else if (!name.equals("COMMIT")) {
                ignored.add(new Entry(name, "not a checkpoint file"));
            }
        }
        TreeSet<Integer> ranks = new TreeSet<>();
        if (sizeOrNull != null) {
            for (int r = 0; r < sizeOrNull; r++) {
                ranks.add(r);
            }
            for (int r : named) {
                if (r >= sizeOrNull) {
                    ignored.add(new Entry("rank-" + r + ".ckpt*", "rank " + r + " is outside size " + sizeOrNull));
                }
            }
        } else {
            ranks.addAll(named);
        }
        CommitFile entries = commit.holds() ? commit.fileOrNull() : null;
        List<Rank> checked = new ArrayList<>();
        for (int r : ranks) {
            RankFile own = FileChecks.rankFile(epochDir.resolve("rank-" + r + ".ckpt"), job, epoch, r, sizeOrNull,
                    entries);
            RankFile buddy = sizeOrNull != null && sizeOrNull == 1 ? null : FileChecks.rankFile(
                    epochDir.resolve("rank-" + r + ".ckpt.buddy"), job, epoch, r, sizeOrNull, entries);
            LoadFrom from = own.status() == FileStatus.OK ? LoadFrom.FILE
                    : buddy != null && buddy.status() == FileStatus.OK ? LoadFrom.BUDDY : LoadFrom.NONE;
            checked.add(new Rank(r, own, buddy, from));
        }
        return new Epoch(epoch, null, null, null, commit.report(), checked, capped(ignored));
    }

    /** The stored job public key, or null (with the reason among the ignored entries). */
    private static byte[] storedKey(Path file, BasicFileAttributes attributes, List<Entry> ignored)
            throws IOException {
        if (attributes == null) {
            return null;
        }
        String notRegular = FileChecks.notRegular(attributes);
        if (notRegular != null || attributes.size() != CompositeSig.PUBLIC_KEY_LENGTH) {
            ignored.add(new Entry(PUBLIC_KEY_FILE, notRegular != null ? notRegular
                    : "length=" + attributes.size() + ", a job public key has " + CompositeSig.PUBLIC_KEY_LENGTH
                    + " bytes"));
            return null;
        }
        ByteBuffer key = ByteBuffer.allocate(CompositeSig.PUBLIC_KEY_LENGTH);
        try (SeekableByteChannel in = Files.newByteChannel(file, StandardOpenOption.READ,
                LinkOption.NOFOLLOW_LINKS)) {
            if (!FileChecks.readFully(in, key) || in.read(ByteBuffer.allocate(1)) > 0) {
                ignored.add(new Entry(PUBLIC_KEY_FILE, "changed length while read"));
                return null;
            }
        } catch (IOException e) {
            ignored.add(new Entry(PUBLIC_KEY_FILE, FileChecks.unreadable(e)));
            return null;
        }
        return key.array();
    }

    /** The entries of {@code dir} by name, with their own attributes (links not followed). */
    private static Map<String, BasicFileAttributes> list(Path dir) throws IOException {
        Map<String, BasicFileAttributes> entries = new TreeMap<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
            for (Path p : stream) {
                try {
                    entries.put(p.getFileName().toString(),
                            Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS));
                } catch (NoSuchFileException e) {
                    // Removed while listed (a running job's retention): it is not there.
                }
            }
        } catch (NotDirectoryException e) {
            return entries;
        }
        return entries;
    }

    private static List<Entry> capped(List<Entry> entries) {
        if (entries.size() <= MAX_IGNORED_SHOWN) {
            return entries;
        }
        List<Entry> shown = new ArrayList<>(entries.subList(0, MAX_IGNORED_SHOWN));
        shown.add(new Entry("...", (entries.size() - MAX_IGNORED_SHOWN) + " more entries not shown"));
        return shown;
    }
}
