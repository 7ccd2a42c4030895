package org.sperli.launcher.job;

/** A host that cannot be reached (the SSH connection failed or timed out): its ranks move to another listed host. */
public final class HostUnreachableException extends Exception {
    private static final long serialVersionUID = 1L;

    private final String host;

    public HostUnreachableException(String host, String reason, Throwable cause) {
        super("host " + host + " cannot be reached: " + reason, cause);
        this.host = host;
    }

    public String host() {
        return host;
    }
}
