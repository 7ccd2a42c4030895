/**
 * A job from host list to exit status: the host sources (--hosts, hostfile, Slurm) and which slots get ranks
 * ({@code -n}), the host plan (normalized hosts, ports, refused hosts, moving ranks off unreachable hosts), the rank
 * command and the variables it passes ({@code -x}), local rank processes, the supervisor that starts every
 * incarnation, writes each rank's description line to its stdin (never to a file), and restarts or stops the job,
 * and the history of its incarnations for the run report. SSH lives in {@code org.sperli.launcher.ssh}; nothing here
 * imports MINA SSHD.
 */
package org.sperli.launcher.job;
