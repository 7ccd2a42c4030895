/**
 * The {@code sperli} command's entry point: {@link org.sperli.launcher.Main}, the only System.exit. The commands are
 * in {@code .command} (the top command {@code SperliCommand} with its subcommands), jobs in {@code .job}, SSH in
 * {@code .ssh}, output in {@code .report}, the exit statuses in {@code .exit}.
 */
package org.sperli.launcher;
