package org.sperli.rankd;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.sperli.crypto.OwnerOnlyDirectory;
import org.sperli.jobspec.JobDescription;

/**
 * The three PEM texts of a rank's description in a fresh directory only its user can enter (0700, files 0600), for
 * as long as the rank makes its connections. The main thread removes it once connected or failed, and the operator's
 * stop removes it too, so removal is idempotent and safe from two threads. A SIGKILL leaves it behind, since
 * nothing in the process runs then: the next rank started by the same user on that host removes it
 * ({@link StalePemDirectories}).
 */
final class PemDirectory implements AutoCloseable {
    static final String PREFIX = "sperli-rankd-";
    static final String CA_CERTIFICATE = "job-ca.pem";
    static final String RANK_CERTIFICATE = "rank.pem";
    static final String RANK_KEY = "rank-key.pem";

    private final OwnerOnlyDirectory directory;

    private PemDirectory(OwnerOnlyDirectory directory) {
        this.directory = directory;
    }

    /**
     * Creates the directory in {@code java.io.tmpdir}, named after this process ({@code sperli-rankd-PID-...}, so
     * that a later rank can tell it is stale), and writes the PEM texts of {@code description}.
     */
    static PemDirectory write(JobDescription description) throws IOException {
        // The property as it is now, which SPERLI_RANK_TMPDIR may have set (GivenTmpdir): the JDK's own temporary
        // files keep the value the JVM started with.
        Path tmpdir = Path.of(System.getProperty(GivenTmpdir.PROPERTY));
        OwnerOnlyDirectory directory = OwnerOnlyDirectory.create(tmpdir, PREFIX + ProcessHandle.current().pid() + "-");
        try {
            writeAscii(directory, CA_CERTIFICATE, description.caCertPem());
            writeAscii(directory, RANK_CERTIFICATE, description.rankCertPem());
            writeAscii(directory, RANK_KEY, description.rankKeyPem());
            return new PemDirectory(directory);
        } catch (IOException | RuntimeException e) {
            directory.close();
            throw e;
        }
    }

    Path path() {
        return directory.path();
    }

    /**
     * Removes what ranks of this user killed outright left beside this directory ({@link StalePemDirectories}), and
     * returns those removed.
     */
    List<Path> removeStaleBeside(Instant now) throws IOException {
        UserPrincipal user = Files.getOwner(directory.path(), LinkOption.NOFOLLOW_LINKS);
        return StalePemDirectories.remove(directory.path().getParent(), user,
                pid -> ProcessHandle.of(pid).isPresent(), now);
    }

    /** Removes the directory and its files; later calls do nothing. */
    @Override
    public synchronized void close() throws IOException {
        directory.close();
    }

    private static void writeAscii(OwnerOnlyDirectory directory, String name, String pem) throws IOException {
        // The description checked that every PEM is ASCII; this copy of the key is wiped once written.
        byte[] bytes = pem.getBytes(StandardCharsets.US_ASCII);
        try {
            directory.write(name, bytes);
        } finally {
            Arrays.fill(bytes, (byte) 0);
        }
    }
}
