package org.sperli.launcher.slurm;

import com.sun.security.auth.module.UnixSystem;

/** The launcher's own UID and GID: a call-home credential must be of the same user and group. */
final class ProcessIds {
    private ProcessIds() {
    }

    static long uid() {
        return new UnixSystem().getUid();
    }

    static long gid() {
        return new UnixSystem().getGid();
    }
}
