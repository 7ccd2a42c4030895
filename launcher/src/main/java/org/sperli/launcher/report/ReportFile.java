package org.sperli.launcher.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import org.sperli.checkpoint.DurableFiles;
import org.sperli.launcher.exit.LauncherException;

/**
 * {@code sperli run --report FILE}: the {@link RunReport} as indented JSON (Jackson, every field, nulls included so
 * that a reader finds every field it was told of), written when the job ends however it ends. Written atomically: a
 * temporary file beside FILE, fsynced and renamed over it, so a CI job never reads half a report, and an old FILE stays
 * whole until the new one replaces it. The file is owner-only (0600): it names hosts and quotes ranks' last lines.
 *
 * <p>{@link #check} runs before anything starts, so that a FILE that cannot be written is one line and exit 2 instead
 * of a report lost after an hour's job.
 */
public final class ReportFile {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ReportFile() {
    }

    /**
     * Refuses (exit 2) a FILE that is a directory or not a regular file, or whose directory does not exist or takes no
     * new file; tries that by making and removing a temporary file there. Returns FILE absolute.
     */
    public static Path check(Path file) {
        return check(file, "--report");
    }

    /** As {@link #check(Path)} for the file of {@code option} ({@code --trace}), named so in a refusal. */
    public static Path check(Path file, String option) {
        Path absolute = file.toAbsolutePath().normalize();
        String what = option + " " + file;
        if (Files.isDirectory(absolute)) {
            throw LauncherException.usage(what + " is a directory, expected a file to write");
        }
        if (Files.exists(absolute, LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(absolute,
                LinkOption.NOFOLLOW_LINKS)) {
            throw LauncherException.usage(what + " is not a regular file (a link, FIFO or device); it would be"
                    + " replaced");
        }
        Path dir = absolute.getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw LauncherException.usage(what + ": directory " + dir + " does not exist");
        }
        try {
            Files.delete(temporary(absolute));
        } catch (IOException e) {
            throw LauncherException.usage(what + ": cannot write in " + dir + ": " + DurableFiles.reason(e));
        }
        return absolute;
    }

    /** The report as written to the file. */
    public static String json(RunReport report) {
        try {
            return JSON.writeValueAsString(report);
        } catch (JsonProcessingException e) {
            // Records of strings, numbers, enums and lists always serialise; this would be a bug in the records.
            throw new IllegalStateException("run report not serialisable: " + e.getOriginalMessage(), e);
        }
    }

    /** Writes {@code report} to {@code file} (as {@link #check}ed) atomically. */
    public static void write(Path file, RunReport report) throws IOException {
        byte[] bytes = (json(report) + "\n").getBytes(StandardCharsets.UTF_8);
        Path tmp = temporary(file);
        try {
            DurableFiles.writeAtomically(tmp, file, bytes);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** A new empty file beside {@code file}, owner-only ({@link Files#createTempFile} makes it 0600 on POSIX). */
    static Path temporary(Path file) throws IOException {
        return Files.createTempFile(file.getParent(), "." + file.getFileName() + ".", ".tmp");
    }
}
