package org.sperli.launcher.command;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** How the launcher reaches hosts over SSH: for which hosts, with which keys, and whether it learns new host keys. */
public final class SshOptions {
    @Option(names = "--ssh", description = "Use SSH for localhost and 127.0.0.1 too.")
    boolean force;

    @Option(names = "--accept-new-host-keys",
            description = "Accept an SSH host key not yet in known_hosts and record it there (a changed key is"
                    + " still refused).")
    boolean acceptNewHostKeys;

    @Option(names = "--ssh-dir", paramLabel = "DIR",
            description = "Directory with config, known_hosts and id_* keys (default: ~/.ssh).")
    Path dirOrNull;

    @Option(names = "--ssh-command", paramLabel = "CMD",
            description = "Reach SSH hosts by running this program (e.g. 'ssh -o BatchMode=yes') as CMD HOST COMMAND"
                    + " for the probe, the copies and the host agent, instead of the built-in client (default:"
                    + " SPERLI_SSH_COMMAND). Host keys stay strict: StrictHostKeyChecking=no (off, false) in CMD is"
                    + " refused, accept-new only with --accept-new-host-keys.")
    String commandOrNull;
}
