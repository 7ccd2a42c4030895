package org.sperli.runtime;

import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import org.sperli.crypto.CompositeSig;

/**
 * A rank's checkpoint settings: where its checkpoints live on its own disk, the job public key that every COMMIT must
 * verify with, and at rank 0 the job signing key that makes COMMITs. A {@link RankConfig} without settings has
 * checkpoints off: {@code checkpoint} is refused with H1618 and a restart does not resume.
 *
 * @param dir               the checkpoint directory ({@code --checkpoint-dir}); the job's files go to
 *                          {@code <dir>/<job id hex>/}
 * @param jobPublicKey      the raw CompositeSig public key, 1344 bytes
 * @param signingKeyOrNull  the raw job signing key, 64 bytes, at rank 0 only; {@code null} elsewhere
 * @param waitLimit         how long one wait of a checkpoint or resume for a peer's next frame may last before the
 *                          rank ends the job (H1613, ABORT reason 5 or 6): heartbeats keep alive a peer whose
 *                          program never enters the checkpoint, so only this bound ends such a wait
 */
public record CheckpointSettings(Path dir, byte[] jobPublicKey, byte[] signingKeyOrNull, Duration waitLimit) {
    /** The wait limit unless the operator chose one: long enough for ranks that reach a checkpoint unevenly. */
    public static final Duration DEFAULT_WAIT_LIMIT = Duration.ofMinutes(10);
    /** The longest wait limit a rank takes. */
    public static final Duration MAX_WAIT_LIMIT = Duration.ofDays(7);

    public CheckpointSettings {
        Objects.requireNonNull(dir, "dir");
        if (waitLimit == null || waitLimit.isNegative() || waitLimit.isZero()
                || waitLimit.compareTo(MAX_WAIT_LIMIT) > 0) {
            throw new IllegalArgumentException("checkpoint wait limit " + waitLimit + ", expected above zero and at"
                    + " most " + MAX_WAIT_LIMIT);
        }
        if (jobPublicKey == null || jobPublicKey.length != CompositeSig.PUBLIC_KEY_LENGTH) {
            throw new IllegalArgumentException("job public key of "
                    + (jobPublicKey == null ? "null" : jobPublicKey.length) + " bytes, expected "
                    + CompositeSig.PUBLIC_KEY_LENGTH);
        }
        if (signingKeyOrNull != null && signingKeyOrNull.length != CompositeSig.SECRET_KEY_LENGTH) {
            throw new IllegalArgumentException("signing key of " + signingKeyOrNull.length + " bytes, expected "
                    + CompositeSig.SECRET_KEY_LENGTH);
        }
        jobPublicKey = jobPublicKey.clone();
        signingKeyOrNull = signingKeyOrNull == null ? null : signingKeyOrNull.clone();
    }

    /** Settings with the {@link #DEFAULT_WAIT_LIMIT}. */
    public CheckpointSettings(Path dir, byte[] jobPublicKey, byte[] signingKeyOrNull) {
        this(dir, jobPublicKey, signingKeyOrNull, DEFAULT_WAIT_LIMIT);
    }

    /** These settings with another wait limit. */
    public CheckpointSettings withWaitLimit(Duration limit) {
        return new CheckpointSettings(dir, jobPublicKey, signingKeyOrNull, limit);
    }

    /** The job public key (a copy). */
    @Override
    public byte[] jobPublicKey() {
        return jobPublicKey.clone();
    }

    /** The job signing key (a copy), or {@code null} at ranks other than 0. */
    @Override
    public byte[] signingKeyOrNull() {
        return signingKeyOrNull == null ? null : signingKeyOrNull.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CheckpointSettings s && dir.equals(s.dir) && waitLimit.equals(s.waitLimit)
                && Arrays.equals(jobPublicKey, s.jobPublicKey)
                && (signingKeyOrNull == null ? s.signingKeyOrNull == null
                        : s.signingKeyOrNull != null && MessageDigest.isEqual(signingKeyOrNull, s.signingKeyOrNull));
    }

    @Override
    public int hashCode() {
        return dir.hashCode() * 31 + Arrays.hashCode(jobPublicKey);
    }

    /** Never shows the signing key. */
    @Override
    public String toString() {
        return "CheckpointSettings[dir=" + dir + ", jobPublicKey=" + jobPublicKey.length + " bytes, signingKey="
                + (signingKeyOrNull == null ? "none" : "(redacted)") + ", waitLimit=" + waitLimit + "]";
    }
}
