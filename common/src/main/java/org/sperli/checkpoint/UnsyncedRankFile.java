package org.sperli.checkpoint;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A rank file written in full under its temporary name and not yet durable: its bytes can already be read from
 * {@link #temporaryPath} (the buddy copy streams from there while the fsync runs), but it counts for nothing until
 * {@link #sync} has forced it to the disk, hashed it and renamed it into place, as protocol section 9.4 step 3 says.
 * Exactly one of {@link #sync} and {@link #discard} is called, once.
 */
public final class UnsyncedRankFile {
    private final FileChannel channel;
    private final Path tmp;
    private final Path target;

    UnsyncedRankFile(FileChannel channel, Path tmp, Path target) {
        this.channel = channel;
        this.tmp = tmp;
        this.target = target;
    }

    /** The temporary name: complete, and readable, but not durable. */
    public Path temporaryPath() {
        return tmp;
    }

    /**
     * fsync, the whole-file SHA-256, rename to the final name and fsync of the directory. A failure is H1619 and
     * removes the temporary file.
     */
    public EpochStore.Written sync() {
        try {
            DurableFiles.syncAndClose(channel);
            byte[] fileSha256 = RankFileWriter.fileSha256(tmp);
            DurableFiles.moveIntoPlace(tmp, target);
            return new EpochStore.Written(target, fileSha256);
        } catch (IOException e) {
            discard();
            throw EpochStore.cannot("write " + target.getFileName(), e);
        }
    }

    /** Closes and removes the temporary file, after a failure elsewhere; never throws. */
    public void discard() {
        try {
            channel.close();
            Files.deleteIfExists(tmp);
        } catch (IOException e) {
            // A leftover temporary name is harmless: the next try truncates it and readers never look at it.
        }
    }
}
