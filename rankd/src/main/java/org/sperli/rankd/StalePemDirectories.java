package org.sperli.rankd;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.UserPrincipal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongPredicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.sperli.crypto.OwnerOnlyDirectory;

/**
 * Removes the PEM directories that ranks killed outright left behind ({@link PemDirectory}): in the temporary
 * directory, those of this user whose process is gone. A directory of a name without a process number (an earlier
 * version's) counts as stale once it is older than {@link #NAMELESS_AGE}: no rank keeps its PEM texts that long,
 * because it removes them once its connections are made or failed. Anything else, another user's directory, a
 * symbolic link, a file, stays untouched.
 */
final class StalePemDirectories {
    /** Far beyond the connection bound of any rank. */
    static final Duration NAMELESS_AGE = Duration.ofMinutes(10);

    private static final Pattern NAME = Pattern.compile(Pattern.quote(PemDirectory.PREFIX) + "(?:(\\d{1,18})-)?.*");

    private StalePemDirectories() {
    }

    /**
     * Removes the stale PEM directories in {@code tmpdir} owned by {@code user}; {@code alive} tells whether a process
     * number runs. Returns those removed. A directory that cannot be removed is skipped: a clean-up must not stop a
     * rank from starting.
     */
    static List<Path> remove(Path tmpdir, UserPrincipal user, LongPredicate alive, Instant now) {
        List<Path> removed = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(tmpdir, PemDirectory.PREFIX + "*")) {
            for (Path entry : entries) {
                if (isStale(entry, user, alive, now) && delete(entry)) {
                    removed.add(entry);
                }
            }
        } catch (IOException e) {
            // An unreadable temporary directory: this rank's own directory will fail there with its own message.
        }
        return removed;
    }

    private static boolean isStale(Path entry, UserPrincipal user, LongPredicate alive, Instant now) {
        Matcher m = NAME.matcher(entry.getFileName().toString());
        if (!m.matches()) {
            return false;
        }
        PosixFileAttributes attributes;
        try {
            attributes = Files.readAttributes(entry, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
        if (!attributes.isDirectory() || !attributes.owner().equals(user)) {
            return false;
        }
        if (m.group(1) != null) {
            long pid = Long.parseLong(m.group(1));
            return pid != ProcessHandle.current().pid() && !alive.test(pid);
        }
        return attributes.lastModifiedTime().toInstant().isBefore(now.minus(NAMELESS_AGE));
    }

    private static boolean delete(Path directory) {
        try {
            OwnerOnlyDirectory.deleteTree(directory);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
