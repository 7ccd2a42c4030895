package org.sperli.rankd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.UserPrincipal;
import java.time.Instant;
import java.util.List;
import java.util.function.LongPredicate;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StalePemDirectoriesTest {
    private static final long GONE = 4_000_001;
    private static final long RUNNING = 4_000_002;
    private static final LongPredicate ALIVE = pid -> pid == RUNNING;
    private static final Instant NOW = Instant.parse("2026-12-03T08:00:00Z");

    @TempDir
    Path tmp;
    @TempDir
    Path elsewhere;
    private UserPrincipal me;

    @BeforeEach
    void user() throws IOException {
        me = Files.getOwner(tmp, LinkOption.NOFOLLOW_LINKS);
    }

    private Path pemDir(String name) throws IOException {
        Path dir = Files.createDirectory(tmp.resolve(name));
        Files.writeString(dir.resolve(PemDirectory.RANK_KEY), "-----BEGIN PRIVATE KEY-----");
        return dir;
    }

    @Test
    void theDirectoryOfAProcessThatIsGoneIsRemovedWithItsKey() throws IOException {
        Path stale = pemDir(PemDirectory.PREFIX + GONE + "-123");
        assertEquals(List.of(stale), StalePemDirectories.remove(tmp, me, ALIVE, NOW));
        assertTrue(Files.notExists(stale));
    }

    @Test
    void theDirectoryOfARunningProcessOrOfThisOneStays() throws IOException {
        Path running = pemDir(PemDirectory.PREFIX + RUNNING + "-123");
        Path own = pemDir(PemDirectory.PREFIX + ProcessHandle.current().pid() + "-456");
        // ALIVE does not know this process's number: only the rule for its own directory keeps that one.
        assertEquals(List.of(), StalePemDirectories.remove(tmp, me, ALIVE, NOW));
        assertTrue(Files.exists(running.resolve(PemDirectory.RANK_KEY)) && Files.exists(own));
    }

    @Test
    void aNameWithoutProcessNumberIsStaleOnlyOnceOlderThanAnyConnectionSetup() throws IOException {
        Path young = pemDir(PemDirectory.PREFIX + "8712634");
        Path old = pemDir(PemDirectory.PREFIX + "99999");
        Files.setLastModifiedTime(old, FileTime.from(NOW.minus(StalePemDirectories.NAMELESS_AGE).minusSeconds(1)));
        Files.setLastModifiedTime(young, FileTime.from(NOW.minusSeconds(5)));
        assertEquals(List.of(old), StalePemDirectories.remove(tmp, me, ALIVE, NOW));
        assertTrue(Files.exists(young));
    }

    @Test
    void linksFilesAndOtherNamesAreNeverTouched() throws IOException {
        Path target = Files.writeString(elsewhere.resolve("precious"), "keep");
        Path link = Files.createSymbolicLink(tmp.resolve(PemDirectory.PREFIX + GONE + "-link"), elsewhere);
        Path file = Files.writeString(tmp.resolve(PemDirectory.PREFIX + GONE + "-file"), "x");
        Path other = pemDir("sperli-launcher-" + GONE + "-1");
        assertEquals(List.of(), StalePemDirectories.remove(tmp, me, ALIVE, NOW));
        assertTrue(Files.exists(link, LinkOption.NOFOLLOW_LINKS) && Files.exists(target) && Files.exists(file)
                && Files.exists(other));
    }

    @Test
    void anotherUsersDirectoryStays() throws IOException {
        UserPrincipal nobody;
        try {
            nobody = tmp.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
        } catch (IOException e) {
            nobody = null;
        }
        assumeTrue(nobody != null && !nobody.equals(me), "no second user 'nobody' here");
        Path theirs = pemDir(PemDirectory.PREFIX + GONE + "-theirs");
        try {
            Files.setOwner(theirs, nobody);
        } catch (IOException e) {
            Assumptions.abort("cannot give a directory to 'nobody' (not root): " + e.getMessage());
        }
        assertEquals(List.of(), StalePemDirectories.remove(tmp, me, ALIVE, NOW));
        assertTrue(Files.exists(theirs));
    }
}
