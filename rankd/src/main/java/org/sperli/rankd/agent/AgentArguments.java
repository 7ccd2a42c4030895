package org.sperli.rankd.agent;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code --host-agent --host NAME [--host NAME ...]}: the host-list names whose ranks this agent may start (a host is
 * listed under one name over SSH, locally as {@code localhost} or {@code 127.0.0.1}). Names compare as the host list
 * writes them, lower case.
 */
record AgentArguments(Set<String> hosts) {
    static final String MODE = "--host-agent";
    static final String USAGE = "usage: sperli-rankd --host-agent --host NAME [--host NAME ...]";

    AgentArguments {
        hosts = Set.copyOf(hosts);
    }

    /** @throws IllegalArgumentException naming what is wrong */
    static AgentArguments parse(List<String> args) {
        if (args.isEmpty() || !args.get(0).equals(MODE)) {
            throw new IllegalArgumentException("the first argument is not " + MODE);
        }
        Set<String> hosts = new LinkedHashSet<>();
        for (int i = 1; i < args.size(); i++) {
            String arg = args.get(i);
            if (!arg.equals("--host")) {
                throw new IllegalArgumentException("unknown argument " + printable(arg));
            }
            if (i + 1 == args.size() || args.get(i + 1).isBlank()) {
                throw new IllegalArgumentException("--host needs a name");
            }
            hosts.add(args.get(++i).toLowerCase(Locale.ROOT));
        }
        if (hosts.isEmpty()) {
            throw new IllegalArgumentException("no --host given");
        }
        return new AgentArguments(hosts);
    }

    private static String printable(String s) {
        String clean = s.codePoints().filter(c -> c >= 0x20 && c != 0x7f).limit(80)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
        return "'" + clean + "'";
    }
}
