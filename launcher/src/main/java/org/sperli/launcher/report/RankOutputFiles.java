package org.sperli.launcher.report;

import java.io.IOException;
import java.io.Writer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.sperli.checkpoint.DurableFiles;
import org.sperli.launcher.exit.LauncherException;

/**
 * {@code sperli run --output-dir DIR}: every rank's stdout and stderr, line by line as the console shows them
 * (timestamps included, without the {@code [rank N]} prefix), also in files of their own:
 *
 * <pre>
 * DIR/&lt;job id&gt;/&lt;incarnation&gt;/rank.&lt;N&gt;/stdout
 * DIR/&lt;job id&gt;/&lt;incarnation&gt;/rank.&lt;N&gt;/stderr
 * </pre>
 *
 * mpirun's {@code DIR/1/rank.N/stdout}, with the job id for mpirun's job number (so that runs into one DIR never meet)
 * and a level per incarnation, since a restart starts every rank again. Both files of a rank exist from its start,
 * empty when it wrote nothing. Directories below DIR are made owner-only (0700) and files 0600 where the file system
 * has POSIX permissions: rank output may hold anything. DIR itself is made 0700 when missing, and left as it is
 * otherwise. Only rank output reaches these files; a rank's job description travels on its standard input and never
 * passes through here.
 *
 * <p>At most {@link #MAX_OPEN} files are open at once (the least recently written is closed and opened again to
 * append), so 4096 ranks do not need 8192 descriptors. A file that cannot be written is said once and the copy stops;
 * the job goes on, its output still on the terminal.
 */
public final class RankOutputFiles implements RankLineCopy, AutoCloseable {
    /** Files held open at once. */
    public static final int MAX_OPEN = 64;

    private static final FileAttribute<?> DIRECTORY_MODE =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));
    private static final FileAttribute<?> FILE_MODE =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));

    private final Path jobDir;
    private final boolean posix;
    private final Consumer<String> problems;
    private final Set<Path> made = new HashSet<>();
    private final Map<Path, Writer> open = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Path, Writer> eldest) {
            if (size() <= MAX_OPEN) {
                return false;
            }
            closeQuietly(eldest.getValue());
            return true;
        }
    };
    private boolean stopped;

    private RankOutputFiles(Path jobDir, boolean posix, Consumer<String> problems) {
        this.jobDir = jobDir;
        this.posix = posix;
        this.problems = problems;
    }

    /**
     * Makes {@code dir} (owner-only) when it is missing and checks that files can be made in it, before anything
     * starts; a DIR that cannot be used is one line, exit 2. Returns it absolute.
     */
    public static Path prepare(Path dir) {
        Path absolute = dir.toAbsolutePath().normalize();
        if (Files.exists(absolute) && !Files.isDirectory(absolute)) {
            throw LauncherException.usage("--output-dir " + dir + " is not a directory");
        }
        try {
            DurableFiles.createDirectories(absolute);
            Files.delete(Files.createTempFile(absolute, ".sperli-output-check-", ".tmp"));
        } catch (IOException | UnsupportedOperationException e) {
            throw LauncherException.usage("--output-dir " + dir + ": cannot write there: "
                    + (e instanceof IOException io ? DurableFiles.reason(io) : e.getMessage()));
        }
        return absolute;
    }

    /**
     * The files of job {@code jobHex} under {@code dir} (already {@link #prepare}d): makes {@code dir/jobHex} now,
     * owner-only. {@code problems} hears of a file that cannot be written (once).
     */
    public static RankOutputFiles create(Path dir, String jobHex, Consumer<String> problems) {
        Path jobDir = dir.resolve(jobHex);
        boolean posix;
        try {
            posix = Files.getFileStore(dir).supportsFileAttributeView("posix");
            // A fresh job id: the directory is new, so nothing can be planted in it beforehand.
            if (posix) {
                Files.createDirectory(jobDir, DIRECTORY_MODE);
            } else {
                Files.createDirectory(jobDir);
            }
        } catch (IOException e) {
            throw LauncherException.usage("--output-dir " + dir + ": cannot make " + jobDir + ": "
                    + DurableFiles.reason(e));
        }
        return new RankOutputFiles(jobDir, posix, problems);
    }

    /** {@code DIR/<job id>}. */
    public Path jobDirectory() {
        return jobDir;
    }

    /** The file of one stream of one rank in one incarnation. */
    public Path file(long incarnation, int rank, boolean stderr) {
        return jobDir.resolve(Long.toString(incarnation)).resolve("rank." + rank).resolve(stderr ? "stderr" : "stdout");
    }

    @Override
    public synchronized void opened(long incarnation, int rank, boolean stderr) {
        writer(file(incarnation, rank, stderr));
    }

    @Override
    public synchronized void line(long incarnation, int rank, boolean stderr, String line) {
        Path file = file(incarnation, rank, stderr);
        Writer writer = writer(file);
        if (writer == null) {
            return;
        }
        try {
            writer.write(line);
            writer.write('\n');
            // Each line at once: a CI job or an operator may follow the file while the rank runs.
            writer.flush();
        } catch (IOException e) {
            stop(file, e);
        }
    }

    /** Closes every file; lines that still arrive (from a rank left behind) are not written. */
    @Override
    public synchronized void close() {
        stopped = true;
        open.values().forEach(RankOutputFiles::closeQuietly);
        open.clear();
    }

    /** The open writer of {@code file}, opened (and made, the first time) when needed; null once stopped. */
    private Writer writer(Path file) {
        if (stopped) {
            return null;
        }
        Writer writer = open.get(file);
        if (writer != null) {
            return writer;
        }
        try {
            boolean first = made.add(file);
            if (first) {
                makeDirectories(file.getParent());
            }
            // The first open makes the file and fails on anything already there (a planted link included).
            Set<OpenOption> options = first
                    ? Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)
                    : Set.of(StandardOpenOption.APPEND, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
            FileChannel channel = first && posix ? FileChannel.open(file, options, FILE_MODE)
                    : FileChannel.open(file, options);
            writer = Channels.newWriter(channel, StandardCharsets.UTF_8);
            open.put(file, writer);
            return writer;
        } catch (IOException e) {
            stop(file, e);
            return null;
        }
    }

    /** The incarnation and rank levels below the job directory, each owner-only. */
    private void makeDirectories(Path rankDir) throws IOException {
        for (Path dir : new Path[] {rankDir.getParent(), rankDir}) {
            try {
                if (posix) {
                    Files.createDirectory(dir, DIRECTORY_MODE);
                } else {
                    Files.createDirectory(dir);
                }
            } catch (FileAlreadyExistsException e) {
                if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
                    throw e;
                }
            }
        }
    }

    private void stop(Path file, IOException e) {
        if (!stopped) {
            stopped = true;
            problems.accept("--output-dir: cannot write " + file + ": " + DurableFiles.reason(e)
                    + "; rank output is no longer copied to files");
        }
        open.values().forEach(RankOutputFiles::closeQuietly);
        open.clear();
    }

    private static void closeQuietly(Writer writer) {
        try {
            writer.close();
        } catch (IOException e) {
            // Flushed after every line: nothing is lost by a close that fails.
        }
    }
}
