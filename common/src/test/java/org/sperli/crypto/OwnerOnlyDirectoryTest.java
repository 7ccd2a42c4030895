package org.sperli.crypto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The owner-only directory: 0700 directory, 0600 files, everything gone after close. */
class OwnerOnlyDirectoryTest {
    @TempDir
    Path parent;

    @Test
    void directoryIsOwnerOnly() throws IOException {
        try (OwnerOnlyDirectory dir = OwnerOnlyDirectory.create(parent, "rank-")) {
            assertEquals("rwx------", mode(dir.path()));
            assertTrue(dir.path().getFileName().toString().startsWith("rank-"));
        }
    }

    @Test
    void filesAreOwnerReadWriteOnlyAndHoldTheText() throws IOException {
        try (OwnerOnlyDirectory dir = OwnerOnlyDirectory.create(parent, "rank-")) {
            Path file = dir.write("rank-key.pem", "-----BEGIN PRIVATE KEY-----\n");
            assertEquals("rw-------", mode(file));
            assertEquals("-----BEGIN PRIVATE KEY-----\n", Files.readString(file));
        }
    }

    @Test
    void closeDeletesTheDirectoryAndEverythingInIt() throws IOException {
        OwnerOnlyDirectory dir = OwnerOnlyDirectory.create(parent, "rank-");
        dir.write("ca.pem", "a");
        dir.write("rank.pem", "b");
        Files.createDirectory(dir.path().resolve("nested"));
        Files.writeString(dir.path().resolve("nested").resolve("x"), "c");
        dir.close();
        assertFalse(Files.exists(dir.path(), LinkOption.NOFOLLOW_LINKS));
        dir.close();
    }

    @Test
    void aSecondCloseReturnsOnlyOnceTheFirstHasDeletedEverything() throws Exception {
        OwnerOnlyDirectory dir = OwnerOnlyDirectory.create(parent, "agent-");
        int directories = 64;
        for (int d = 0; d < directories; d++) {
            Path sub = Files.createDirectory(dir.path().resolve("rank-" + d));
            for (int f = 0; f < 256; f++) {
                Files.writeString(sub.resolve("f" + f), "x");
            }
        }
        Thread first = new Thread(() -> {
            try {
                dir.close();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        first.start();
        try {
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
            // The first close is under way once one of the directories is gone, with most of the tree still there.
            while (Files.exists(dir.path()) && subdirectories(dir.path()) == directories) {
                assertTrue(System.nanoTime() < deadline, "the first close did not start");
                Thread.onSpinWait();
            }
            dir.close();
            assertFalse(Files.exists(dir.path(), LinkOption.NOFOLLOW_LINKS), "the second close returned early");
        } finally {
            first.join(30_000);
        }
    }

    private static long subdirectories(Path path) {
        try (var list = Files.list(path)) {
            return list.count();
        } catch (IOException e) {
            return -1;
        }
    }

    @Test
    void closeDeletesALinkWithoutFollowingIt() throws IOException {
        Path outside = Files.writeString(parent.resolve("outside.txt"), "keep");
        OwnerOnlyDirectory dir = OwnerOnlyDirectory.create(parent, "rank-");
        Files.createSymbolicLink(dir.path().resolve("link"), outside);
        dir.close();
        assertFalse(Files.exists(dir.path(), LinkOption.NOFOLLOW_LINKS));
        assertEquals("keep", Files.readString(outside));
    }

    @Test
    void refusesToOverwriteAnExistingFile() throws IOException {
        try (OwnerOnlyDirectory dir = OwnerOnlyDirectory.create(parent, "rank-")) {
            dir.write("ca.pem", "a");
            assertThrows(FileAlreadyExistsException.class, () -> dir.write("ca.pem", "b"));
        }
    }

    @Test
    void refusesNamesWithSeparators() throws IOException {
        try (OwnerOnlyDirectory dir = OwnerOnlyDirectory.create(parent, "rank-")) {
            assertThrows(IllegalArgumentException.class, () -> dir.write("../escape", "x"));
            assertThrows(IllegalArgumentException.class, () -> dir.write("..", "x"));
            assertThrows(IllegalArgumentException.class, () -> dir.write("", "x"));
        }
    }

    @Test
    void refusesWritesAfterClose() throws IOException {
        OwnerOnlyDirectory dir = OwnerOnlyDirectory.create(parent, "rank-");
        dir.close();
        assertThrows(IllegalStateException.class, () -> dir.write("late.pem", "x"));
    }

    private static String mode(Path path) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS));
    }
}
