package org.sperli.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which ranks the host list puts on a rank's own machine, which decides whether its waits poll first. */
class RanksOnOwnMachineTest {
    @Test
    void oneNameCaseAsideIsOneMachine() {
        assertTrue(new PeerAddress("node7.example", 1).sameMachineAs(new PeerAddress("NODE7.example", 2)));
        assertFalse(new PeerAddress("node7.example", 1).sameMachineAs(new PeerAddress("node8.example", 1)));
    }

    @Test
    void everyLoopbackNameIsThisMachine() {
        PeerAddress localhost = new PeerAddress("localhost", 1);
        for (String host : List.of("127.0.0.1", "127.0.0.2", "::1", "[::1]", "LOCALHOST")) {
            assertTrue(localhost.sameMachineAs(new PeerAddress(host, 2)), host);
        }
        assertFalse(localhost.sameMachineAs(new PeerAddress("128.0.0.1", 2)));
        assertFalse(localhost.sameMachineAs(new PeerAddress("localhost.example", 2)));
        assertFalse(localhost.sameMachineAs(new PeerAddress("127.example", 2)));
    }

    @Test
    void theRankCountsItselfAndEveryPeerListedOnItsMachine() {
        List<PeerAddress> hosts = List.of(new PeerAddress("a", 1), new PeerAddress("b", 1),
                new PeerAddress("A", 2), new PeerAddress("localhost", 3), new PeerAddress("127.0.0.2", 3));
        assertEquals(2, config(hosts, 0).ranksOnOwnMachine());
        assertEquals(1, config(hosts, 1).ranksOnOwnMachine());
        assertEquals(2, config(hosts, 4).ranksOnOwnMachine());
    }

    private static RankConfig config(List<PeerAddress> hosts, int rank) {
        return new RankConfig(null, hosts.size(), rank, 0, 0, hosts, null, null, null, null, null, null, null, null,
                null);
    }
}
