package org.sperli.launcher.ssh;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.sftp.client.SftpClient;
import org.apache.sshd.sftp.client.SftpClientFactory;
import org.apache.sshd.sftp.common.SftpConstants;
import org.apache.sshd.sftp.common.SftpException;
import org.sperli.launcher.job.JobJar;

/**
 * Puts the job jar on a host over SFTP, into a content-addressed cache under the login directory:
 * {@code ~/.cache/sperli/jars/<sha256>.jar} (and the rank daemon's jars into {@code ~/.cache/sperli/lib}, see
 * {@link RemoteRankd}). A host that already holds that file with the jar's size keeps it; the
 * rank checks the SHA-256 before it loads a class ({@code --jar-sha256}), so a damaged cache entry is refused there,
 * never run. A new copy is written under a temporary name and renamed into place, so the cache name only ever holds
 * a whole file.
 */
final class JarStager {
    /** The cache directory, relative to the login (home) directory, which is where SFTP and exec start. */
    static final String CACHE_DIR = ".cache/sperli/jars";

    private static final SecureRandom RANDOM = new SecureRandom();

    private JarStager() {
    }

    /** The jar's path on the host, relative to the login directory. */
    static String remotePath(JobJar jar) {
        return CACHE_DIR + "/" + jar.sha256Hex() + ".jar";
    }

    /**
     * Makes sure {@code session}'s host holds the jar; returns true when it was copied, false when it was there.
     */
    static boolean stage(Sftp sftp, JobJar jar) throws IOException {
        return stage(sftp, jar.path(), jar.size(), remotePath(jar), CACHE_DIR, false);
    }

    /**
     * One SFTP client for a host's staging, opened when first needed (a host whose files are all there still opens
     * it, to look) and shared by the job jar and the rank daemon's jars: each client is a channel and a handshake.
     */
    static final class Sftp implements AutoCloseable {
        private final ClientSession session;
        private SftpClient client;

        Sftp(ClientSession session) {
            this.session = session;
        }

        synchronized SftpClient client() throws IOException {
            if (client == null) {
                client = open(session);
            }
            return client;
        }

        @Override
        public synchronized void close() {
            if (client != null) {
                try {
                    client.close();
                } catch (IOException e) {
                    // The session is closed or kept by its owner; nothing staged depends on this close.
                }
                client = null;
            }
        }
    }

    /**
     * Makes sure {@code session}'s host holds {@code local} as {@code target} (relative to the login directory,
     * inside {@code cacheDir}): copied under a temporary name and renamed into place unless a file of that size is
     * there, or always when {@code replace} (its content was found wrong). Returns true when it was copied.
     */
    static boolean stage(Sftp shared, Path local, long size, String target, String cacheDir,
                         boolean replace) throws IOException {
        SftpClient sftp = shared.client();
        if (!replace && holds(sftp, target, size)) {
            return false;
        }
        mkdirs(sftp, cacheDir);
        String temporary = target + ".tmp-" + HexFormat.of().formatHex(randomBytes());
        try {
            try (OutputStream out = sftp.write(temporary)) {
                Files.copy(local, out);
            }
            if (replace) {
                removeQuietly(sftp, target);
            }
            sftp.rename(temporary, target);
        } catch (IOException e) {
            removeQuietly(sftp, temporary);
            // Another launcher may have put the same file there first.
            if (holds(sftp, target, size)) {
                return false;
            }
            throw e;
        }
        return true;
    }

    /**
     * An SFTP client on {@code session}. A server without SFTP (an OpenSSH sshd_config without its {@code Subsystem
     * sftp} line) closes the channel at once, which the SSH library reports as "Channel closing": said here in the
     * operator's terms, with what to change.
     */
    private static SftpClient open(ClientSession session) throws IOException {
        try {
            return SftpClientFactory.instance().createSftpClient(session);
        } catch (IOException e) {
            if (!session.isOpen()) {
                throw e;
            }
            // Not the cause: the launcher names a failure by its innermost cause, which would be the library's words.
            IOException said = new IOException("the host's SSH server offers no SFTP, which staging needs (OpenSSH:"
                    + " a 'Subsystem sftp' line in sshd_config; it said: " + SshTransport.reason(e) + ")");
            said.addSuppressed(e);
            throw said;
        }
    }

    private static boolean holds(SftpClient sftp, String path, long size) throws IOException {
        try {
            SftpClient.Attributes a = sftp.stat(path);
            return a.isRegularFile() && a.getSize() == size;
        } catch (SftpException e) {
            if (e.getStatus() == SftpConstants.SSH_FX_NO_SUCH_FILE) {
                return false;
            }
            throw e;
        }
    }

    static void mkdirs(SftpClient sftp, String dir) throws IOException {
        StringBuilder path = new StringBuilder();
        for (String part : dir.split("/")) {
            path.append(path.length() == 0 ? "" : "/").append(part);
            String p = path.toString();
            try {
                if (sftp.stat(p).isDirectory()) {
                    continue;
                }
                throw new IOException(p + " exists on the host and is not a directory");
            } catch (SftpException e) {
                if (e.getStatus() != SftpConstants.SSH_FX_NO_SUCH_FILE) {
                    throw e;
                }
            }
            try {
                sftp.mkdir(p);
            } catch (SftpException e) {
                // Hosts of one job are prepared at once, and two names may reach one home: the other made it first.
                if (!isDirectory(sftp, p)) {
                    throw e;
                }
            }
        }
    }

    private static boolean isDirectory(SftpClient sftp, String path) {
        try {
            return sftp.stat(path).isDirectory();
        } catch (IOException e) {
            return false;
        }
    }

    private static void removeQuietly(SftpClient sftp, String path) {
        try {
            sftp.remove(path);
        } catch (IOException e) {
            // Nothing was written there, or it is gone already.
        }
    }

    private static byte[] randomBytes() {
        byte[] b = new byte[8];
        RANDOM.nextBytes(b);
        return b;
    }
}
