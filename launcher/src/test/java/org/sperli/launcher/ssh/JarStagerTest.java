package org.sperli.launcher.ssh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.sshd.sftp.client.SftpClient;
import org.apache.sshd.sftp.common.SftpConstants;
import org.apache.sshd.sftp.common.SftpException;
import org.junit.jupiter.api.Test;

/**
 * The cache directories on a host are made one level at a time, while other hosts of the same job (which may share
 * the home directory) do the same: a directory that appeared between the look and the {@code mkdir} is success, a
 * file in its place is not.
 */
class JarStagerTest {
    @Test
    void aDirectoryAnotherHostMadeBetweenTheLookAndTheMkdirIsSuccess() throws Exception {
        FakeSftp fake = new FakeSftp(true);

        MinaShell.mkdirs(fake.client(), ".cache/sperli/jars");

        assertEquals(List.of(".cache", ".cache/sperli", ".cache/sperli/jars"), fake.mkdirCalls);
        assertEquals(Set.of(".cache", ".cache/sperli", ".cache/sperli/jars"), fake.directories);
    }

    @Test
    void aMkdirThatFailsWithNothingThereIsReported() {
        FakeSftp fake = new FakeSftp(false);

        SftpException e = assertThrows(SftpException.class, () -> MinaShell.mkdirs(fake.client(), ".cache/sperli"));

        assertEquals(SftpConstants.SSH_FX_PERMISSION_DENIED, e.getStatus());
    }

    /**
     * An SFTP client whose every {@code mkdir} loses a race: the directory is made by "someone else" and the call
     * fails as OpenSSH's does then; or, when {@code othersMakeIt} is false, fails with nothing made.
     */
    private static final class FakeSftp {
        final Set<String> directories = new HashSet<>();
        final List<String> mkdirCalls = new ArrayList<>();
        private final boolean othersMakeIt;

        FakeSftp(boolean othersMakeIt) {
            this.othersMakeIt = othersMakeIt;
        }

        SftpClient client() {
            return (SftpClient) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {SftpClient.class},
                    (proxy, method, args) -> switch (method.getName()) {
                        case "stat" -> stat((String) args[0]);
                        case "mkdir" -> mkdir((String) args[0]);
                        default -> throw new AssertionError("unexpected SFTP call " + method.getName());
                    });
        }

        private SftpClient.Attributes stat(String path) throws SftpException {
            if (!directories.contains(path)) {
                throw new SftpException(SftpConstants.SSH_FX_NO_SUCH_FILE, "No such file");
            }
            return new SftpClient.Attributes().perms(SftpConstants.S_IFDIR | 0700);
        }

        private Object mkdir(String path) throws SftpException {
            mkdirCalls.add(path);
            if (othersMakeIt) {
                directories.add(path);
                throw new SftpException(SftpConstants.SSH_FX_FAILURE, "Failure");
            }
            throw new SftpException(SftpConstants.SSH_FX_PERMISSION_DENIED, "Permission denied");
        }
    }
}
