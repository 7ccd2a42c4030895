/**
 * SSH ranks with Apache MINA SSHD, and nothing else: the one client of a run ({@link
 * org.sperli.launcher.ssh.SshTransport}) with the user's keys, {@code ~/.ssh/config} and strict {@code known_hosts}
 * checking; staging the job jar over SFTP into a content-addressed cache; one exec channel per rank that gets the
 * description line on stdin. Every connect, login and channel open is bounded by a named Duration. No other package
 * imports MINA SSHD.
 */
package org.sperli.launcher.ssh;
