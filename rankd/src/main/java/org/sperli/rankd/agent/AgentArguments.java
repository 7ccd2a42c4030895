package org.sperli.rankd.agent;

import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code --host-agent --host NAME [--host NAME ...]}: the host-list names whose ranks this agent may start (a host is
 * listed under one name over SSH, locally as {@code localhost} or {@code 127.0.0.1}). Names compare as the host list
 * writes them, lower case.
 *
 * <p>Under Slurm one command line serves every node of the step, so it names each node's host instead ({@code --node
 * NODE=NAME}, the agent takes the one of {@code SLURMD_NODENAME}) and says how to call home ({@code --call-home-port},
 * {@code --launcher-sha256}, {@code --nonce}; {@code docs/sperli-agent.md} section 9).
 */
record AgentArguments(Set<String> hosts, CallHomeTarget callHomeOrNull) {
    static final String MODE = "--host-agent";
    static final String USAGE = "usage: sperli-rankd --host-agent --host NAME [--host NAME ...], or under Slurm"
            + " --host-agent --node NODE=NAME ... --call-home-port P --launcher-sha256 HEX --nonce HEX";
    /** The variable that names the node of a Slurm task. */
    static final String NODE_VARIABLE = "SLURMD_NODENAME";

    AgentArguments {
        hosts = Set.copyOf(hosts);
    }

    /** @throws IllegalArgumentException naming what is wrong */
    static AgentArguments parse(List<String> args) {
        return parse(args, Map.of());
    }

    /** As {@link #parse(List)}; {@code env} gives the node of a call-home agent. */
    static AgentArguments parse(List<String> args, Map<String, String> env) {
        if (args.isEmpty() || !args.get(0).equals(MODE)) {
            throw new IllegalArgumentException("the first argument is not " + MODE);
        }
        Set<String> hosts = new LinkedHashSet<>();
        Map<String, String> nodes = new LinkedHashMap<>();
        Map<String, String> callHome = new LinkedHashMap<>();
        for (int i = 1; i < args.size(); i++) {
            String arg = args.get(i);
            if (!arg.equals("--host") && !arg.equals("--node") && !CALL_HOME_OPTIONS.contains(arg)) {
                throw new IllegalArgumentException("unknown argument " + printable(arg));
            }
            if (i + 1 == args.size() || args.get(i + 1).isBlank()) {
                throw new IllegalArgumentException(arg + (arg.equals("--host") ? " needs a name" : " needs a value"));
            }
            String value = args.get(++i);
            if (arg.equals("--host")) {
                hosts.add(value.toLowerCase(Locale.ROOT));
            } else if (arg.equals("--node")) {
                int eq = value.indexOf('=');
                if (eq < 1 || eq == value.length() - 1) {
                    throw new IllegalArgumentException("--node " + printable(value) + " is not NODE=NAME");
                }
                nodes.put(value.substring(0, eq), value.substring(eq + 1).toLowerCase(Locale.ROOT));
            } else if (callHome.put(arg, value) != null) {
                throw new IllegalArgumentException(arg + " given twice");
            }
        }
        if (callHome.isEmpty() && nodes.isEmpty()) {
            if (hosts.isEmpty()) {
                throw new IllegalArgumentException("no --host given");
            }
            return new AgentArguments(hosts, null);
        }
        return callingHome(hosts, nodes, callHome, env);
    }

    private static final Set<String> CALL_HOME_OPTIONS = Set.of("--call-home-port", "--launcher-sha256", "--nonce");

    private static AgentArguments callingHome(Set<String> hosts, Map<String, String> nodes,
                                              Map<String, String> callHome, Map<String, String> env) {
        if (!hosts.isEmpty()) {
            throw new IllegalArgumentException("--host and --node exclude each other");
        }
        for (String option : CALL_HOME_OPTIONS) {
            if (!callHome.containsKey(option)) {
                throw new IllegalArgumentException("--node needs " + option);
            }
        }
        String node = env.get(NODE_VARIABLE);
        if (node == null || !nodes.containsKey(node)) {
            throw new IllegalArgumentException(NODE_VARIABLE + (node == null ? " is not set" : " '" + node
                    + "' is not one of the --node entries") + " (this mode runs as a task of a Slurm step)");
        }
        int port = port(callHome.get("--call-home-port"));
        String sha = hex(callHome.get("--launcher-sha256"), "--launcher-sha256", 64);
        String nonce = hex(callHome.get("--nonce"), "--nonce", 64);
        return new AgentArguments(Set.of(nodes.get(node)), new CallHomeTarget(port, sha, nonce, node));
    }

    private static int port(String text) {
        if (text.isEmpty() || text.length() > 5 || !text.chars().allMatch(c -> c >= '0' && c <= '9')
                || Integer.parseInt(text) < 1 || Integer.parseInt(text) > 65535) {
            throw new IllegalArgumentException("--call-home-port " + printable(text) + " is not in 1..65535");
        }
        return Integer.parseInt(text);
    }

    private static String hex(String text, String option, int digits) {
        if (text.length() != digits || !text.chars().allMatch(HexFormat::isHexDigit)
                || !text.equals(text.toLowerCase(Locale.ROOT))) {
            throw new IllegalArgumentException(option + " is not " + digits + " lower-case hex digits");
        }
        return text;
    }

    private static String printable(String s) {
        String clean = s.codePoints().filter(c -> c >= 0x20 && c != 0x7f).limit(80)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
        return "'" + clean + "'";
    }
}
