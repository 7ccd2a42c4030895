package org.sperli.transport;

import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;

/**
 * Where Netty logs in a rank process: the JDK's logging, chosen directly. Left to itself, Netty's first logger probes
 * for SLF4J, finds the no-op binding that the launcher's jar carries for MINA SSHD, refuses it as a no-op and only
 * then takes the JDK's logging. Choosing directly spares every rank that probe (see docs/performance.md, section
 * 3.7); what is left is the JDK's logging starting, which the native crypto provider needs too.
 */
public final class NettyLogging {
    private NettyLogging() {
    }

    /**
     * Makes the JDK's logging Netty's; to be called before any other Netty class is used, since each class takes its
     * logger once, when it is initialised.
     */
    public static void useJdkLogging() {
        InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
    }
}
