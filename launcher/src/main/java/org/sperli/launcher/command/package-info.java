/**
 * The subcommands of {@code sperli}, one class each ({@code run}, {@code demo},
 * {@code inspect-checkpoint}), and the option groups they share or that belong together ({@link
 * org.sperli.launcher.command.LaunchOptions}, {@link org.sperli.launcher.command.HostOptions}, and those of
 * {@code run}: checkpoint, SSH and output options).
 * Commands only read options and hand the work to the job runner (or the checkpoint inspector); they print through
 * the command's own writers.
 *
 * <p>The option declarations of these classes are alike in shape, names, a label and a help text each: picocli builds
 * {@code --help}, the man pages and the shell completion from the annotations, so each option stays one declared
 * field rather than an entry built by shared code.
 */
package org.sperli.launcher.command;
