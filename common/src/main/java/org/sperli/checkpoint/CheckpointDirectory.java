package org.sperli.checkpoint;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether a checkpoint directory can be used, asked before a job starts: by the launcher for its local ranks and by
 * each rank for its own host. It must be a directory or not exist yet, and its nearest existing ancestor must be a
 * directory this user can write to (the ranks make the rest). Nothing is created here.
 */
public final class CheckpointDirectory {
    private CheckpointDirectory() {
    }

    /** Why {@code dir} cannot hold checkpoints, in words for one line, or null when it can. */
    public static String problem(Path dir) {
        Path absolute = dir.toAbsolutePath().normalize();
        Path existing = absolute;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null) {
            return "no part of it exists";
        }
        if (!Files.isDirectory(existing)) {
            return existing.equals(absolute) ? "it is a file, not a directory"
                    : existing + " is a file, so the directory cannot be made under it";
        }
        if (!Files.isWritable(existing) || !Files.isExecutable(existing)) {
            return existing.equals(absolute) ? "this user cannot write to it"
                    : "this user cannot make it: " + existing + " is not writable";
        }
        return null;
    }
}
