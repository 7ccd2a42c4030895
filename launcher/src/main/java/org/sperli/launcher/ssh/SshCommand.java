package org.sperli.launcher.ssh;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.sperli.launcher.exit.LauncherException;
import org.sperli.launcher.job.CommandWords;

/**
 * The operator's own ssh ({@code --ssh-command 'ssh ...'}, else {@value #VARIABLE}): the launcher runs
 * {@code WORDS HOST REMOTE-COMMAND} as a local child process for each host's probe, each copy and its host agent,
 * instead of logging in with the built-in client, so that whatever the operator's OpenSSH does (an agent, Kerberos,
 * FIDO and PKCS#11 keys, certificates, {@code ControlMaster}, {@code ProxyJump}) works unchanged.
 *
 * <p>Host keys stay strict: words that set {@code StrictHostKeyChecking} to {@code no} ({@code off}, {@code false}),
 * which accepts any host key, a changed one too, are refused, and {@code accept-new}, which records unknown keys, is
 * refused unless {@code --accept-new-host-keys} allows it; both before anything starts (exit status 2). What the
 * program's own configuration files say is the operator's, as with {@code ssh} itself.
 */
public final class SshCommand {
    /** The environment variable read when {@code --ssh-command} is not given. */
    public static final String VARIABLE = "SPERLI_SSH_COMMAND";
    static final String OPTION = "--ssh-command";

    /** An ssh option word that sets StrictHostKeyChecking, as {@code -o X=V}, {@code -oX=V} or {@code -o 'X V'}. */
    private static final Pattern STRICT = Pattern.compile(
            "^(?:-o)?\\s*StrictHostKeyChecking(?:\\s*=\\s*|\\s+)(\\S*)\\s*$", Pattern.CASE_INSENSITIVE);

    private final List<String> words;
    /** Where the command came from, for messages: {@code --ssh-command} or the variable's name. */
    private final String source;

    private SshCommand(List<String> words, String source) {
        this.words = List.copyOf(words);
        this.source = source;
    }

    /**
     * The operator's ssh: {@code optionOrNull} when given, else {@value #VARIABLE} of {@code env} when set and not
     * blank, else none (the built-in client).
     *
     * @throws LauncherException with {@link org.sperli.launcher.exit.ExitCodes#USAGE}: an empty option, an unclosed
     *         quote, or host-key checking weaker than the launcher's (see the class comment)
     */
    public static Optional<SshCommand> of(String optionOrNull, Map<String, String> env, boolean acceptNewHostKeys) {
        String source = OPTION;
        String command = optionOrNull;
        if (command == null) {
            source = VARIABLE;
            command = env.get(VARIABLE);
            if (command == null || command.isBlank()) {
                return Optional.empty();
            }
        }
        if (command.isBlank()) {
            throw LauncherException.usage(source + " is empty: give the ssh program and its options, such as"
                    + " 'ssh -o BatchMode=yes'");
        }
        List<String> words;
        try {
            words = CommandWords.split(command);
        } catch (LauncherException e) {
            throw LauncherException.usage(source + ": " + e.getMessage());
        }
        checkHostKeys(words, source, acceptNewHostKeys);
        return Optional.of(new SshCommand(words, source));
    }

    private static void checkHostKeys(List<String> words, String source, boolean acceptNewHostKeys) {
        for (String word : words) {
            Matcher m = STRICT.matcher(word);
            if (!m.matches()) {
                continue;
            }
            String value = m.group(1).toLowerCase(Locale.ROOT);
            String given = "StrictHostKeyChecking=" + m.group(1);
            if (value.equals("no") || value.equals("off") || value.equals("false")) {
                throw LauncherException.usage(source + ": " + given + " accepts any host key, a changed one too,"
                        + " which the launcher never does; StrictHostKeyChecking=accept-new with"
                        + " --accept-new-host-keys records new keys and still refuses changed ones");
            }
            if (value.equals("accept-new") && !acceptNewHostKeys) {
                throw LauncherException.usage(source + ": " + given + " records host keys not yet known; give"
                        + " --accept-new-host-keys to allow that");
            }
        }
    }

    /** Where the command came from: {@code --ssh-command} or {@value #VARIABLE}. */
    String source() {
        return source;
    }

    /** The program, as given (its first word). */
    String program() {
        return words.get(0);
    }

    /** The command line that runs {@code remoteCommand} (one word for the remote login shell) on {@code host}. */
    List<String> argv(String host, String remoteCommand) {
        return withArguments(host, remoteCommand);
    }

    /** The program and its words, then {@code arguments}. */
    List<String> withArguments(String... arguments) {
        List<String> argv = new ArrayList<>(words);
        argv.addAll(List.of(arguments));
        return argv;
    }

    /** As given, for {@code -v}. */
    @Override
    public String toString() {
        return String.join(" ", words.stream().map(CommandWords::quote).toList());
    }

    /**
     * Refuses the run when the program cannot be started: a path that is no executable file, or a name that no
     * directory of {@code path} (the launcher's PATH, which starting it searches) holds as one.
     *
     * @throws LauncherException with {@link org.sperli.launcher.exit.ExitCodes#START_FAILED}
     */
    void checkProgram(String path) {
        String program = program();
        if (program.contains("/")) {
            if (!Files.isRegularFile(Path.of(program)) || !Files.isExecutable(Path.of(program))) {
                throw LauncherException.startFailed(source + ": program " + program + " is not an executable file",
                        null);
            }
            return;
        }
        if (path != null) {
            for (String dir : path.split(File.pathSeparator)) {
                try {
                    Path candidate = Path.of(dir.isEmpty() ? "." : dir, program);
                    if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                        return;
                    }
                } catch (InvalidPathException e) {
                    // Not a directory that can hold it.
                }
            }
        }
        throw LauncherException.startFailed(source + ": program " + program + " not found on the PATH", null);
    }
}
