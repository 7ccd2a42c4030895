package org.sperli.launcher.job;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.sperli.launcher.exit.LauncherException;

/**
 * The environment variables {@code sperli run -x} passes to every rank, mpirun's habit: {@code -x NAME=VALUE} sets
 * NAME, {@code -x NAME} copies the launcher's own value (which must be set). A later {@code -x} of the same name wins,
 * as in a shell.
 *
 * <p>Local ranks are child processes and inherit the launcher's environment anyway; these variables are set on top.
 * SSH ranks get exactly these and nothing else of the launcher's environment: {@link #remotePrefix} puts
 * {@code env 'NAME=VALUE' ...} in front of the remote command, each word quoted for the remote shell. SSH's own
 * "env" requests are not used: OpenSSH's sshd drops every variable its AcceptEnv does not name, silently.
 */
public final class RankExports {
    /** What a POSIX shell accepts as a variable name; anything else could not be set through {@code env} safely. */
    static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private static final RankExports NONE = new RankExports(Map.of());

    private final Map<String, String> variables;

    private RankExports(Map<String, String> variables) {
        this.variables = Collections.unmodifiableMap(new LinkedHashMap<>(variables));
    }

    /** No variable passed. */
    public static RankExports none() {
        return NONE;
    }

    /**
     * The variables of {@code -x} arguments in order; {@code launcher} supplies the value of a bare NAME. A bad name,
     * or a bare NAME the launcher does not have, is refused in one line (exit 2).
     */
    public static RankExports of(List<String> arguments, Map<String, String> launcher) {
        Map<String, String> variables = new LinkedHashMap<>();
        for (String argument : arguments) {
            int equals = argument.indexOf('=');
            String name = equals < 0 ? argument : argument.substring(0, equals);
            if (!NAME.matcher(name).matches()) {
                throw LauncherException.usage("-x " + argument + ": '" + name + "' is not a variable name (letters,"
                        + " digits and _, not starting with a digit)");
            }
            String value = equals < 0 ? launcher.get(name) : argument.substring(equals + 1);
            if (value == null) {
                throw LauncherException.usage("-x " + name + ": " + name + " is not set in the launcher's environment"
                        + " (give -x " + name + "=VALUE)");
            }
            variables.remove(name);
            variables.put(name, value);
        }
        return variables.isEmpty() ? NONE : new RankExports(variables);
    }

    /** Name to value, in the order given. */
    public Map<String, String> variables() {
        return variables;
    }

    public boolean isEmpty() {
        return variables.isEmpty();
    }

    /** {@code env NAME=VALUE ... } (with its trailing blank) for the remote shell, or empty when there is none. */
    public String remotePrefix() {
        if (variables.isEmpty()) {
            return "";
        }
        List<String> words = new ArrayList<>();
        words.add("env");
        variables.forEach((name, value) -> words.add(CommandWords.quote(name + "=" + value)));
        return String.join(" ", words) + " ";
    }

    @Override
    public String toString() {
        return "RankExports" + variables.keySet();
    }
}
