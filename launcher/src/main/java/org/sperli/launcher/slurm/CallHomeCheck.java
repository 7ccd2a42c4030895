package org.sperli.launcher.slurm;

import java.util.Optional;

/**
 * Whether a decoded credential lets a call-home in: munged's verdict (status 0: a valid MAC, within its time to live,
 * not seen before on this host, so fresh), the launcher's own UID and GID (a credential of another user proves
 * nothing about this job), and the exact payload that the launcher expects for that node, which holds this job and
 * step, the node, this launcher's nonce and the hash of the key of the very TLS connection that brought it.
 */
record CallHomeCheck(long uid, long gid) {

    /** Empty when the call-home may have its node's descriptions, else why not (one line, nothing secret). */
    Optional<String> refusal(Unmunge.Decoded decoded, String expectedPayload) {
        if (decoded.exitStatus() != 0) {
            return Optional.of("MUNGE refused the credential: " + (decoded.status().isEmpty()
                    ? "unmunge exit " + decoded.exitStatus() : decoded.status()));
        }
        if (decoded.uid() != uid || decoded.gid() != gid) {
            return Optional.of("the credential is of UID " + decoded.uid() + " GID " + decoded.gid()
                    + ", not the launcher's " + uid + " " + gid);
        }
        if (!decoded.payload().equals(expectedPayload)) {
            return Optional.of("the credential's payload is not this job's, step's, node's, nonce's and"
                    + " connection key's");
        }
        return Optional.empty();
    }
}
