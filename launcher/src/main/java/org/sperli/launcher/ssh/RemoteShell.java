package org.sperli.launcher.ssh;

import java.io.IOException;
import java.nio.file.Path;

/**
 * What a host's preparation needs of its login, whatever logs in: running one shell script there and copying a file
 * there. The probe ({@link RemoteRankd.Probe}) and the staging ({@link JarStager}) are written once against it; the
 * built-in client does it over its session (an exec channel, SFTP), {@code --ssh-command} by running the operator's
 * program once per script or file. Paths are relative to the login directory, where both start.
 */
interface RemoteShell extends AutoCloseable {
    /**
     * Runs {@code script} as {@code sh -c SCRIPT} through the host's login shell and returns its standard output.
     *
     * @throws IOException when the script cannot be run or the connection fails under it
     */
    String run(String script) throws IOException;

    /** Whether the host holds {@code path} as a regular file of {@code size} bytes. */
    boolean holds(String path, long size) throws IOException;

    /**
     * Writes {@code local} whole to {@code temporary}, making {@code dir} where it is missing, then renames it to
     * {@code target}; a file there is replaced when {@code replace} (its content was found wrong), and may be either
     * way. What a failure leaves under {@code temporary} is removed where it can be. So {@code target} only ever holds
     * a whole file.
     */
    void copy(Path local, String dir, String temporary, String target, boolean replace) throws IOException;

    /** Ends what the shell holds open for the host (an SFTP channel); the login itself stays. */
    @Override
    void close();
}
