/**
 * A rank's trace: every call of its program, each collective with its sequence number, the checkpoint and resume
 * phases and the connection setup, as spans in a bounded ring per rank ({@link org.sperli.trace.RankTrace}), written
 * out as Chrome's Trace Event format, which Perfetto and {@code chrome://tracing} open
 * ({@link org.sperli.trace.ChromeTrace}). Off unless asked for; see {@code docs/sperli-trace.md}.
 */
package org.sperli.trace;
