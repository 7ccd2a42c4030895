package org.sperli.runtime;

/** Where a rank listens: its host-list entry. */
public record PeerAddress(String host, int port) {
    @Override
    public String toString() {
        return host + ":" + port;
    }
}
