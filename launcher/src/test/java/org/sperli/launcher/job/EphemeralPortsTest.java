package org.sperli.launcher.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EphemeralPortsTest {
    private static final EphemeralRange LINUX = new EphemeralRange(new PortSpan(32768, 60999), List.of());

    @TempDir
    Path dir;

    @Test
    void theRangeFileIsReadAsTheKernelWritesIt() {
        assertEquals(Optional.of(LINUX), EphemeralPorts.parse("32768\t60999\n"));
        assertEquals(Optional.of(LINUX), EphemeralPorts.parse("  32768   60999  "));
    }

    @Test
    void aRangeThatIsNotTwoPortsInOrderIsUnknown() {
        for (String garbage : List.of("", "\n", "32768", "32768 60999 7", "60999 32768", "0 60999", "32768 65536",
                "x 60999", "-1 60999", "32768\t6e4", "999999 9999999")) {
            assertEquals(Optional.empty(), EphemeralPorts.parse(garbage), "'" + garbage + "'");
        }
    }

    @Test
    void reservedPortsAreNoPartOfTheRangeAndAnUnreadableListReservesNone() {
        EphemeralRange range = EphemeralPorts.parse("32768 60999\n", "40000-40009,50000\n").orElseThrow();
        assertFalse(range.takes(40000));
        assertFalse(range.takes(40009));
        assertFalse(range.takes(50000));
        assertTrue(range.takes(40010));
        assertEquals(List.of(), EphemeralPorts.parse("32768 60999", "\n").orElseThrow().reserved());
        assertEquals(List.of(), EphemeralPorts.parse("32768 60999", "40000-,x").orElseThrow().reserved());
    }

    @Test
    void aSpanOfRankPortsOverlapsTheRangeWhenAnyOfItsPortsLiesInIt() {
        assertFalse(LINUX.overlaps(23000, 64));
        assertFalse(LINUX.overlaps(32704, 64));
        assertTrue(LINUX.overlaps(32705, 64));
        assertTrue(LINUX.overlaps(47000, 64));
        assertTrue(LINUX.overlaps(60999, 1));
        assertFalse(LINUX.overlaps(61000, 64));
        EphemeralRange reserved = EphemeralPorts.parse("32768 60999", "47000-47063").orElseThrow();
        assertFalse(reserved.overlaps(47000, 64));
        assertTrue(reserved.overlaps(47000, 65));
    }

    @Test
    void bothFilesAreReadFromTheirDirectoryAndAMissingRangeIsUnknown() throws IOException {
        assertEquals(Optional.empty(), EphemeralPorts.read(dir));
        Files.writeString(dir.resolve(EphemeralPorts.RANGE_FILE), "32768\t60999\n");
        assertEquals(Optional.of(LINUX), EphemeralPorts.read(dir));
        Files.writeString(dir.resolve(EphemeralPorts.RESERVED_FILE), "47000-47063\n");
        assertFalse(EphemeralPorts.read(dir).orElseThrow().takes(47000));
    }

    @Test
    void thisHostsRangeIsReadAsCatReadsIt() throws Exception {
        Path file = EphemeralPorts.PROC_IPV4.resolve(EphemeralPorts.RANGE_FILE);
        Assumptions.assumeTrue(Files.isReadable(file), "this host has no " + file);
        Process cat = new ProcessBuilder("cat", file.toString()).start();
        String text = new String(cat.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
        assertEquals(0, cat.waitFor());

        Optional<EphemeralRange> range = EphemeralPorts.ofThisHost();
        assertTrue(range.isPresent(), "not read: '" + text + "'");
        assertEquals(EphemeralPorts.parse(text).orElseThrow().ports(), range.get().ports());
    }

    @Test
    void theProbeLineGivesTheRemoteRangeWithItsReservations() {
        assertEquals(Optional.of(LINUX), EphemeralPorts.parseProbeLine("sperli-ports 32768 60999 "));
        assertEquals(Optional.of(LINUX), EphemeralPorts.parseProbeLine("sperli-ports 32768 60999"));
        EphemeralRange reserved = EphemeralPorts.parseProbeLine("sperli-ports 32768 60999 8080,47000-47001")
                .orElseThrow();
        assertEquals(List.of(new PortSpan(8080, 8080), new PortSpan(47000, 47001)), reserved.reserved());
        for (String other : List.of("sperli-ports", "sperli-ports 32768", "sperli-ports x y", "sperli-portsx 1 2",
                "java java", "")) {
            assertEquals(Optional.empty(), EphemeralPorts.parseProbeLine(other), "'" + other + "'");
        }
    }

    @Test
    void localRanksOnPortsInTheRangeAreRefusedNamingPortsRangeFileAndRemedy() {
        assertEquals(Optional.of("ports 40000-40001 of the local ranks lie in this host's ephemeral port range"
                + " 32768-60999 (/proc/sys/net/ipv4/ip_local_port_range), from which the kernel gives outgoing"
                + " connections their ports, so a rank could find its port taken: nothing was started; give"
                + " --port-base 32766 or lower (and host:port entries below 32768), or reserve the ports with sysctl"
                + " net.ipv4.ip_local_reserved_ports"),
                EphemeralPorts.localRefusal(List.of(40000, 40001), Optional.of(LINUX)));
    }

    @Test
    void anSshHostsRefusalNamesTheHostAndOnlyThePortsInItsRange() {
        assertEquals(Optional.of("port 40000 of the ranks on host node1.example lies in its ephemeral port range"
                + " 32768-60999 (/proc/sys/net/ipv4/ip_local_port_range there), from which the kernel gives outgoing"
                + " connections their ports, so a rank could find its port taken: nothing was started; give"
                + " --port-base 32766 or lower (and host:port entries below 32768), or reserve the ports there with"
                + " sysctl net.ipv4.ip_local_reserved_ports"),
                EphemeralPorts.refusal("node1.example", List.of(23000, 40000), Optional.of(LINUX)));
    }

    @Test
    void manyPortsAreNamedByTheirFirstRunsAndACount() {
        List<Integer> ports = IntStream.of(33000, 33001, 33003, 33005, 33007, 33009, 33010).boxed().toList();
        String why = EphemeralPorts.localRefusal(ports, Optional.of(LINUX)).orElseThrow();
        assertTrue(why.startsWith("ports 33000-33001, 33003, 33005, 33007 and 2 more of the local ranks lie"), why);
    }

    @Test
    void aRangeThatLeavesNoBaseBelowItAsksForPortsOutsideIt() {
        EphemeralRange low = EphemeralPorts.parse("1024 65000").orElseThrow();
        List<Integer> ports = IntStream.range(2000, 4000).boxed().toList();
        assertTrue(EphemeralPorts.localRefusal(ports, Optional.of(low)).orElseThrow().endsWith("nothing was started;"
                + " give the ranks host:port entries outside it, or reserve the ports with sysctl"
                + " net.ipv4.ip_local_reserved_ports"));
    }

    @Test
    void portsOutsideTheRangeOrReservedOrAnUnknownRangeAreNotRefused() {
        assertEquals(Optional.empty(), EphemeralPorts.localRefusal(List.of(23000, 23001), Optional.of(LINUX)));
        assertEquals(Optional.empty(), EphemeralPorts.localRefusal(List.of(40000), Optional.empty()));
        assertEquals(Optional.empty(), EphemeralPorts.refusal("node1", List.of(47000),
                EphemeralPorts.parse("32768 60999", "47000")));
        assertEquals(Optional.empty(), EphemeralPorts.localRefusal(List.of(), Optional.of(LINUX)));
    }
}
