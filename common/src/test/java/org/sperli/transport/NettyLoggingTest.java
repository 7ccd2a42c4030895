package org.sperli.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;
import org.junit.jupiter.api.Test;

/** A rank process's Netty logs through the JDK's logging, chosen without a probe. */
class NettyLoggingTest {
    @Test
    void aRankProcessGivesNettyTheJdksLogging() {
        InternalLoggerFactory before = InternalLoggerFactory.getDefaultFactory();
        try {
            NettyLogging.useJdkLogging();
            assertSame(JdkLoggerFactory.INSTANCE, InternalLoggerFactory.getDefaultFactory());
            assertEquals("JdkLogger", InternalLoggerFactory.getInstance("sperli.test").getClass().getSimpleName());
        } finally {
            InternalLoggerFactory.setDefaultFactory(before);
        }
    }
}
