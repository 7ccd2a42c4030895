package org.sperli.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Checkpoint files are their owner's alone, whatever the umask, like the PEM files. */
class DurableFilesTest {
    @TempDir
    Path dir;

    @Test
    void aFileWrittenAtomicallyIsOwnerOnly() throws IOException {
        Path target = dir.resolve("COMMIT");
        DurableFiles.writeAtomically(dir.resolve("COMMIT.tmp"), target, new byte[] {1, 2, 3});
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(target)));
    }

    @Test
    void aTemporaryFileLeftOpenToOthersByAnEarlierTryIsMadeOwnerOnly() throws IOException {
        Path tmp = Files.createFile(dir.resolve("rank-0.ckpt.tmp"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-rw-rw-")));
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-rw-rw-"));
        DurableFiles.openTemporary(tmp).close();
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(tmp)));
    }
}
