package org.sperli.launcher.job;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class PortSpanTest {
    @Test
    void portsFormRunsOfConsecutivePortsInAnyOrderAndRepeatsCountOnce() {
        assertEquals(List.of(new PortSpan(5, 7), new PortSpan(9, 9), new PortSpan(11, 12)),
                PortSpan.runs(List.of(12, 7, 5, 6, 9, 11, 6)));
        assertEquals(List.of(), PortSpan.runs(List.of()));
    }

    @Test
    void aRunIsWrittenAsItsEndsOrItsOnePort() {
        List<Integer> ports = new ArrayList<>(List.of(23100));
        IntStream.rangeClosed(23000, 23063).forEach(ports::add);
        assertEquals("23000-23063, 23100", PortSpan.describe(ports));
    }

    @Test
    void theKernelsListFormReadsAsSpansAndAnythingElseIsUnknown() {
        assertEquals(Optional.of(List.of(new PortSpan(8080, 8080), new PortSpan(9148, 9150))),
                PortSpan.parseList("8080,9148-9150\n"));
        assertEquals(Optional.of(List.of()), PortSpan.parseList("\n"));
        for (String garbage : List.of("8080,", "9150-9148", "1-2-3", "0", "65536", "http", "80 81")) {
            assertEquals(Optional.empty(), PortSpan.parseList(garbage), "'" + garbage + "'");
        }
    }
}
