package org.sperli.runtime;

import java.util.Locale;
import java.util.regex.Pattern;

/** Where a rank listens: its host-list entry. */
public record PeerAddress(String host, int port) {
    private static final Pattern LOOPBACK_IPV4 = Pattern.compile("127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}");

    /**
     * Whether the two entries name one machine, as far as their names tell without asking a resolver: the same name
     * (case aside), or both loopback (localhost, 127.0.0.0/8, ::1), which the tests and single-machine jobs mix.
     */
    public boolean sameMachineAs(PeerAddress other) {
        return host.equalsIgnoreCase(other.host) || isLoopback(host) && isLoopback(other.host);
    }

    private static boolean isLoopback(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        return h.equals("localhost") || LOOPBACK_IPV4.matcher(h).matches() || h.equals("::1") || h.equals("[::1]");
    }

    @Override
    public String toString() {
        return host + ":" + port;
    }
}
