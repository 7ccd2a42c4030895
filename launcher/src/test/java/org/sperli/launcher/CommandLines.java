package org.sperli.launcher;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A process's whole command line, read from {@code /proc/PID/cmdline}. {@code ProcessHandle.Info.commandLine()} reads
 * at most one page (4096 bytes) of it on Linux and drops the rest, so the words after a long class path (an agent's
 * {@code --host-agent}, say) are missing from it wherever the class path is long: a clone in a deeper directory.
 */
public final class CommandLines {
    private CommandLines() {
    }

    /** The arguments of process {@code pid} joined by spaces, or "" when it is gone or cannot be read. */
    public static String of(ProcessHandle process) {
        try {
            byte[] raw = Files.readAllBytes(Path.of("/proc", Long.toString(process.pid()), "cmdline"));
            return new String(raw, StandardCharsets.UTF_8).replace('\0', ' ').strip();
        } catch (IOException | SecurityException e) {
            return "";
        }
    }
}
