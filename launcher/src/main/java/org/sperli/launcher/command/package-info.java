/**
 * The subcommands of {@code sperli}, one class each ({@code run}, {@code demo}), and the option groups they share.
 * Commands only read options and hand a request to the job runner; they print through the command's own writers.
 */
package org.sperli.launcher.command;
