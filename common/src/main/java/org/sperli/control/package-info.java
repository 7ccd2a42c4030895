/**
 * The control stream between a launcher and a host agent ({@code sperli-rankd --host-agent}): length-prefixed
 * frames on the agent's standard input (launcher to agent: start a rank, signal it, shut down) and standard output
 * (agent to launcher: ready, started, output, exited, failed, bye). {@code docs/sperli-agent.md} (English) and
 * {@code docs/sperli-agent-de.md} (German) give the same layouts for a second implementation.
 *
 * <p>Every length is checked against {@link org.sperli.control.ControlFrames#maxLength} of its direction before
 * anything is allocated; a cut, oversized, unknown or malformed frame is a {@link
 * org.sperli.control.ControlStreamException}. START frames carry a rank's description line, a secret: readers zero
 * the frame's bytes once decoded, and nothing here prints a description.
 */
package org.sperli.control;
