package org.sperli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The peer farm is a good enough double of seven ranks that a real rank process, started as {@code sperli run}
 * starts one, connects to all of them, runs the scale job's barriers and allreduces through them (the job checks each
 * sum) and ends with status 0; the row it gives has the figures filled in.
 */
@Timeout(120)
class PeerFarmTest {
    private static final int RANKS = 8;

    @TempDir
    Path dir;

    @Test
    void aRealRankRunsItsJobAgainstAFarmOfSevenRanks() throws Exception {
        ScaleOptions options = ScaleOptions.parse(new String[] {"--ranks", Integer.toString(RANKS), "--settle", "0",
            "--idle", "1", "--rounds", "2", "--farm-threads", "1", "--port-base", Integer.toString(freePorts())});
        ScaleRun.Row row = new ScaleRun(RANKS, options).run(dir);
        assertEquals(RANKS, row.ranks());
        assertTrue(row.connectedS() > 0, row.toString());
        assertTrue(row.fds() >= RANKS - 1, row.toString());
        assertTrue(row.threads() > 0 && row.idleHeap() > 0 && row.rssKb() > 0, row.toString());
        assertTrue(row.barrierMs() > 0 && row.allreduceMs() > 0, row.toString());
    }

    /** A base port below the ephemeral range whose {@value #RANKS} ports can all be bound now. */
    private static int freePorts() throws IOException {
        for (int base = 21000; base < 32000; base += 97) {
            if (bindable(base)) {
                return base;
            }
        }
        throw new IOException("no " + RANKS + " free ports in a row below 32000");
    }

    private static boolean bindable(int base) {
        for (int p = base; p < base + RANKS; p++) {
            try (ServerSocket s = new ServerSocket()) {
                s.bind(new InetSocketAddress("0.0.0.0", p));
            } catch (IOException e) {
                return false;
            }
        }
        return true;
    }
}
