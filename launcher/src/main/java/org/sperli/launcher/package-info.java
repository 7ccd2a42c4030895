/**
 * The {@code sperli} command: {@link org.sperli.launcher.Main} (the only System.exit), the top command with its
 * {@code commandLine(out, err)} factory, and the one exit-code policy ({@link org.sperli.launcher.ExitCodes}).
 * Subcommands are in {@code .command}, jobs in {@code .job}, SSH in {@code .ssh}, output in {@code .report}.
 */
package org.sperli.launcher;
