/**
 * The host agent, {@code sperli-rankd --host-agent}: one process per host and job that starts the host's ranks as its
 * children, hands each its description line on standard input, forwards their output and exit statuses to the
 * launcher over the control stream ({@link org.sperli.control}), and ends them when the launcher asks or is gone.
 * It loads no TLS, runtime or job class: it only starts and watches processes.
 */
package org.sperli.rankd.agent;
