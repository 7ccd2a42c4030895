package org.sperli.launcher.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sperli.launcher.job.EphemeralPorts;
import org.sperli.launcher.job.HostPlan;

class LocalHostsTest {
    private static int end() {
        return EphemeralPorts.ofThisHost().map(r -> r.ports().first()).orElse(LocalHosts.END_WITHOUT_RANGE);
    }

    @Test
    void freePortsOfLocalRanksLieFromTheDefaultBaseToBelowThisHostsEphemeralRange() throws IOException {
        List<Integer> ports = LocalHosts.freePorts(64);
        assertEquals(64, new HashSet<>(ports).size(), ports.toString());
        for (int port : ports) {
            assertTrue(port >= HostPlan.DEFAULT_PORT_BASE && port < end(), port + " of " + ports);
        }
    }

    @Test
    void aPortThatIsHeldIsNotHandedOut() throws IOException {
        int port = LocalHosts.freePorts(1).get(0);
        int band = end() - HostPlan.DEFAULT_PORT_BASE;
        try (ServerSocket held = new ServerSocket()) {
            held.bind(new InetSocketAddress("0.0.0.0", port));
            // Asked for every port of the band, it must find the held one taken.
            IOException e = assertThrows(IOException.class, () -> LocalHosts.freePorts(band));
            assertTrue(e.getMessage().startsWith("only "), e.getMessage());
            assertTrue(e.getMessage().endsWith(" of the ports " + HostPlan.DEFAULT_PORT_BASE + "-" + (end() - 1)
                    + " are free"), e.getMessage());
        }
    }
}
