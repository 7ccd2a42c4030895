/**
 * What the launcher shows and leaves behind: rank output with {@code [rank N]} prefixes and optional timestamps, the
 * one-line progress display on a terminal, the copies of rank output in {@code --output-dir}, and the end of a run as
 * one record ({@link org.sperli.launcher.report.RunReport}) rendered twice: the summary line and the
 * {@code --report} JSON. Nothing here starts processes or talks to hosts; no job description passes through here.
 */
package org.sperli.launcher.report;
