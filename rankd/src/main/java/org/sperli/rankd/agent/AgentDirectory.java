package org.sperli.rankd.agent;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.util.function.LongPredicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.sperli.control.ControlFrame.RankRef;
import org.sperli.crypto.OwnerOnlyDirectory;

/**
 * The agent's owner-only directory in the temporary directory, {@code sperli-agent-<pid>-*}, holding one private
 * directory per rank that the rank takes as its temporary directory. Whatever a rank leaves there (a PEM directory
 * with its private key when it was killed during setup, the crypto library's unpacked copy) goes with the rank's
 * directory when the rank ends, however it ended. Directories of agents whose process is gone (an agent killed
 * outright) are removed when the next agent starts.
 */
final class AgentDirectory implements AutoCloseable {
    static final String PREFIX = "sperli-agent-";
    private static final Pattern NAME = Pattern.compile(Pattern.quote(PREFIX) + "(\\d{1,18})-.*");

    private final OwnerOnlyDirectory directory;

    private AgentDirectory(OwnerOnlyDirectory directory) {
        this.directory = directory;
    }

    /** Removes the directories of gone agents in {@code tmpdir}, then makes this agent's. */
    static AgentDirectory create(Path tmpdir, LongPredicate alive) throws IOException {
        OwnerOnlyDirectory own = OwnerOnlyDirectory.create(tmpdir, PREFIX + ProcessHandle.current().pid() + "-");
        removeStale(tmpdir, Files.getOwner(own.path()), alive);
        return new AgentDirectory(own);
    }

    Path path() {
        return directory.path();
    }

    /** A new private directory for {@code ref}. */
    Path rankDirectory(RankRef ref) throws IOException {
        return OwnerOnlyDirectory.create(directory.path(), "rank-" + ref.rank() + "-" + ref.incarnation() + "-")
                .path();
    }

    /** Removes a rank's directory; false when it could not be (said by the caller). */
    static boolean remove(Path rankDirectory) {
        try {
            OwnerOnlyDirectory.deleteTree(rankDirectory);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public void close() throws IOException {
        directory.close();
    }

    private static void removeStale(Path tmpdir, UserPrincipal user, LongPredicate alive) {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(tmpdir, PREFIX + "*")) {
            for (Path entry : entries) {
                Matcher m = NAME.matcher(entry.getFileName().toString());
                if (m.matches() && Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)
                        && Files.getOwner(entry, LinkOption.NOFOLLOW_LINKS).equals(user)
                        && !alive.test(Long.parseLong(m.group(1)))) {
                    remove(entry);
                }
            }
        } catch (IOException e) {
            // A clean-up must not stop the agent: its own directory fails with its own message if it cannot be made.
        }
    }
}
