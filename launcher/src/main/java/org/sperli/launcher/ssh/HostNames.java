package org.sperli.launcher.ssh;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.sperli.launcher.exit.LauncherException;
import org.sperli.launcher.job.CommandWords;

/**
 * The job's host names as its ranks use them: a rank reaches its peers by the names of the host list, resolved on
 * its own host, not by what the operator's SSH configuration makes of them. A name that is only an ssh_config alias
 * ({@code Host inner} with {@code HostName 192.0.2.10}) lets the login work and the ranks fail later with a lost peer.
 * So each host's probe says which names do not resolve there ({@code getent hosts}, the resolver a rank's JVM uses
 * too; nothing where the host has no {@code getent}), and such a name refuses the job before any rank starts, in one
 * line naming it, the host, the alias's HostName when it is one, and how to list the host instead.
 */
final class HostNames {
    /** The first word of the probe's line for a name that does not resolve on the host. */
    static final String PROBE_WORD = "sperli-unresolved";
    /** Needs no lookup: an IPv4 address; an IPv6 one has a colon, which no host name has. */
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    private final List<String> names;
    private final Function<String, Optional<String>> aliasHostName;

    /**
     * @param jobHosts the host names of the job's host list, each as often as it is listed
     * @param aliasHostName the HostName the operator's SSH configuration gives a name that is an alias
     */
    HostNames(List<String> jobHosts, Function<String, Optional<String>> aliasHostName) {
        Set<String> distinct = new LinkedHashSet<>();
        for (String host : jobHosts) {
            if (!isAddress(host)) {
                distinct.add(host);
            }
        }
        this.names = List.copyOf(distinct);
        this.aliasHostName = aliasHostName;
    }

    /** Whether {@code host} is an address, which a rank uses as it is. */
    static boolean isAddress(String host) {
        return host.contains(":") || IPV4.matcher(host).matches();
    }

    /** The names a probe checks, each once, in the order of the host list. */
    List<String> names() {
        return names;
    }

    /**
     * The probe's shell lines: {@value #PROBE_WORD} and the name for each name that {@code getent hosts} does not
     * resolve; nothing at all where the host has no {@code getent} (no false refusal).
     */
    String probeScript() {
        if (names.isEmpty()) {
            return "";
        }
        StringBuilder script = new StringBuilder("if command -v getent >/dev/null 2>&1; then ");
        for (String name : names) {
            String q = CommandWords.quote(name);
            script.append("getent hosts ").append(q).append(" >/dev/null 2>&1 || echo ").append(PROBE_WORD)
                    .append(' ').append(q).append("; ");
        }
        return script.append("fi; ").toString();
    }

    /**
     * Refuses the job when {@code host}'s probe found names it cannot resolve ({@code found}, in the order of the
     * host list).
     *
     * @throws LauncherException with {@link org.sperli.launcher.exit.ExitCodes#START_FAILED} and the one line
     */
    void check(String host, List<String> found) {
        // Only names of ours: a host's output is not to be repeated as it is.
        List<String> unresolved = found.stream().filter(names::contains).distinct().toList();
        if (unresolved.isEmpty()) {
            return;
        }
        String name = unresolved.get(0);
        Optional<String> hostName = aliasHostName.apply(name);
        String how = hostName.map(h -> name + " is an alias of your ssh config for HostName " + h
                + "; list the host as " + h + " instead, or give " + name + " an /etc/hosts entry on every host")
                .orElse("list the host by a name or address that every host resolves, or give " + name
                        + " an /etc/hosts entry on every host");
        String others = unresolved.size() == 1 ? ""
                : " (nor do " + String.join(", ", unresolved.subList(1, unresolved.size())) + ")";
        throw LauncherException.startFailed("host name " + name + " does not resolve on " + host
                + " (getent hosts), and the ranks there reach their peers by the host list's names: " + how + others,
                null);
    }
}
