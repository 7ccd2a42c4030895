/**
 * SSH ranks: logged in with Apache MINA SSHD (the one client of a run, {@link
 * org.sperli.launcher.ssh.SshTransport}, with the user's keys, {@code ~/.ssh/config} and strict {@code known_hosts}
 * checking), or through the operator's own ssh program ({@link org.sperli.launcher.ssh.SshCommand},
 * {@code --ssh-command}); either way one probe per host, the job jar and the rank daemon staged into a
 * content-addressed cache, and one host agent per host whose standard input and output carry the control stream.
 * Every connect, login, channel open and program run is bounded by a named Duration. No other package imports MINA
 * SSHD.
 */
package org.sperli.launcher.ssh;
