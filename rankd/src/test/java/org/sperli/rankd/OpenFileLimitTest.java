package org.sperli.rankd;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.sperli.ErrorCode;
import org.sperli.SperliException;

class OpenFileLimitTest {
    private static final List<String> LIMITS = List.of(
            "Limit                     Soft Limit           Hard Limit           Units     ",
            "Max processes             95000                95000                processes ",
            "Max open files            1024                 524288               files     ");

    @Test
    void softAndHardLimitAreReadFromProcLimits() {
        assertEquals(new OpenFileLimit(1024, 524288), OpenFileLimit.parse(LIMITS));
        assertEquals(new OpenFileLimit(Long.MAX_VALUE, Long.MAX_VALUE),
                OpenFileLimit.parse(List.of("Max open files            unlimited            unlimited            files")));
        assertNull(OpenFileLimit.parse(List.of("Max processes 1 1 processes")));
    }

    @Test
    void aRankNeedsOneDescriptorPerPeerAndTheReserve() {
        assertEquals(4095 + OpenFileLimit.RESERVE, OpenFileLimit.needed(4096));
        assertDoesNotThrow(() -> new OpenFileLimit(4095 + OpenFileLimit.RESERVE, 4095 + OpenFileLimit.RESERVE)
                .check(4096, "node1"));
    }

    @Test
    void aLimitBelowTheJobsConnectionsIsRefusedWithH1616AndTheHardLimitToRaise() {
        SperliException e = assertThrows(SperliException.class, () -> new OpenFileLimit(4096, 4096)
                .check(4096, "node1"));
        assertEquals(ErrorCode.H1616, e.code());
        assertEquals("H1616 job description refused: a job of 4096 ranks needs 4223 open files in each rank (4095"
                + " connections and 128 for the JVM and its files), but this rank's limit (nofile) is 4096, its hard"
                + " limit 4096; raise the hard limit of the rank's user on host node1 (limits.conf, systemd"
                + " LimitNOFILE) to at least 4223", e.getMessage());
    }

    @Test
    void aSoftLimitTheJvmDidNotRaiseIsSaidAsSuch() {
        SperliException e = assertThrows(SperliException.class, () -> new OpenFileLimit(1024, 524288)
                .check(4096, "node1"));
        assertEquals("H1616 job description refused: a job of 4096 ranks needs 4223 open files in each rank (4095"
                + " connections and 128 for the JVM and its files), but this rank's limit (nofile) is 1024, its hard"
                + " limit 524288; the JVM did not raise its soft limit to the hard one (was it started with"
                + " -XX:-MaxFDLimit?)", e.getMessage());
    }
}
