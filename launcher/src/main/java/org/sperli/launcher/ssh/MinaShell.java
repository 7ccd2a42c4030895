package org.sperli.launcher.ssh;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.sftp.client.SftpClient;
import org.apache.sshd.sftp.client.SftpClientFactory;
import org.apache.sshd.sftp.common.SftpConstants;
import org.apache.sshd.sftp.common.SftpException;
import org.sperli.launcher.job.CommandWords;

/**
 * A host's {@link RemoteShell} on the built-in client's session: scripts on exec channels, files over one SFTP client,
 * opened when first needed (a host whose files are all there never opens it: on OpenSSH that channel starts a process
 * of its own) and shared by the job jar and the rank daemon's jars, since each client is a channel and a handshake.
 */
final class MinaShell implements RemoteShell {
    private final ClientSession session;
    private SftpClient client;

    MinaShell(ClientSession session) {
        this.session = session;
    }

    @Override
    public String run(String script) throws IOException {
        return session.executeRemoteCommand("sh -c " + CommandWords.quote(script), new ByteArrayOutputStream(),
                StandardCharsets.UTF_8, SshTransport.COMMAND_TIMEOUT);
    }

    @Override
    public boolean holds(String path, long size) throws IOException {
        try {
            SftpClient.Attributes a = client().stat(path);
            return a.isRegularFile() && a.getSize() == size;
        } catch (SftpException e) {
            if (e.getStatus() == SftpConstants.SSH_FX_NO_SUCH_FILE) {
                return false;
            }
            throw e;
        }
    }

    @Override
    public void copy(Path local, String dir, String temporary, String target, boolean replace) throws IOException {
        SftpClient sftp = client();
        mkdirs(sftp, dir);
        try {
            try (OutputStream out = sftp.write(temporary)) {
                Files.copy(local, out);
            }
            // SFTP's rename (version 3, as OpenSSH speaks it) does not replace a file.
            if (replace) {
                removeQuietly(sftp, target);
            }
            sftp.rename(temporary, target);
        } catch (IOException e) {
            removeQuietly(sftp, temporary);
            throw e;
        }
    }

    private synchronized SftpClient client() throws IOException {
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

    /** Makes {@code dir} one level at a time, while another host of the job (sharing the home) may do the same. */
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
}
