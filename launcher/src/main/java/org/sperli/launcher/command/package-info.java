/**
 * The subcommands of {@code sperli}, one class each ({@code run}, {@code demo},
 * {@code inspect-checkpoint}), and the option groups they share.
 * Commands only read options and hand the work to the job runner (or the checkpoint inspector); they print through
 * the command's own writers.
 */
package org.sperli.launcher.command;
