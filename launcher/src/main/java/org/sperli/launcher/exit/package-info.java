/**
 * How the launcher ends: its exit statuses ({@link org.sperli.launcher.exit.ExitCodes}, the one exit-code policy) and
 * the exception that carries one to {@code Main} ({@link org.sperli.launcher.exit.LauncherException}). The bottom of
 * the launcher: every other launcher package may use it, and it uses none of them.
 */
package org.sperli.launcher.exit;
