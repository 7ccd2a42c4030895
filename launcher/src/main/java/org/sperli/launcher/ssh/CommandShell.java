package org.sperli.launcher.ssh;

import java.io.IOException;
import java.nio.file.Path;
import org.sperli.launcher.job.CommandWords;

/**
 * A host's {@link RemoteShell} through the operator's ssh program: a script runs as {@code WORDS HOST 'sh -c
 * SCRIPT'}, as the built-in client runs it on an exec channel; a file is piped into {@code WORDS HOST 'umask 077;
 * mkdir -p DIR && cat > TEMPORARY && mv -f TEMPORARY TARGET'}, so no scp or SFTP is needed and the cache name only
 * ever holds a whole file.
 */
final class CommandShell implements RemoteShell {
    private final CommandLogins.CommandLogin login;

    CommandShell(CommandLogins.CommandLogin login) {
        this.login = login;
    }

    @Override
    public String run(String script) throws IOException {
        CommandRun.Result result = login.run("sh -c " + CommandWords.quote(script), null, login.runBound());
        if (result.exitStatus() != 0) {
            throw failed("the command", result);
        }
        return result.out();
    }

    @Override
    public boolean holds(String path, long size) throws IOException {
        String f = CommandWords.quote(path);
        String out = run("if [ -f " + f + " ]; then wc -c < " + f + "; fi");
        try {
            return !out.isBlank() && Long.parseLong(out.strip()) == size;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    @Override
    public void copy(Path local, String dir, String temporary, String target, boolean replace) throws IOException {
        String t = CommandWords.quote(temporary);
        String copy = "umask 077; mkdir -p " + CommandWords.quote(dir) + " && cat > " + t + " && mv -f " + t + " "
                + CommandWords.quote(target) + " || { rm -f " + t + "; exit 1; }";
        CommandRun.Result result = login.run(copy, local, SshRanks.STAGE_TIMEOUT);
        if (result.exitStatus() != 0) {
            throw failed("the copy", result);
        }
    }

    private static IOException failed(String what, CommandRun.Result result) {
        return new IOException(what + " ended with exit status " + result.exitStatus()
                + (result.lastErrLine().isEmpty() ? "" : ": " + RemoteRankd.printable(result.lastErrLine())));
    }

    @Override
    public void close() {
        // Each run ended with its program.
    }
}
