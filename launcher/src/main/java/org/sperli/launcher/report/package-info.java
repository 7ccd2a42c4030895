/**
 * What the launcher shows: rank output with {@code [rank N]} prefixes, the one-line progress display on a terminal,
 * and the end-of-job summary. Nothing here starts processes or talks to hosts.
 */
package org.sperli.launcher.report;
