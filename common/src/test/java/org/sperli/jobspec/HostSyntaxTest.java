package org.sperli.jobspec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HostSyntaxTest {

    @ParameterizedTest
    @ValueSource(strings = {"0.0.0.0", "1.2.3.4", "10.0.0.1", "255.255.255.255", "192.168.100.200"})
    void acceptsDottedIpv4(String host) {
        assertTrue(HostSyntax.isIpv4(host));
        assertNull(HostSyntax.check(host));
    }

    @ParameterizedTest
    @ValueSource(strings = {"01.2.3.4", "1.2.3.04", "00.1.1.1", "256.1.1.1", "1.2.3.256", "1.2.3", "1.2.3.4.5",
        "1..2.3", "1.2.3.", ".1.2.3", "1234.1.1.1", "0001.1.1.1", "99999999999.1.1.1", "1", "123", "..."})
    void refusesDigitsAndDotsThatAreNotIpv4(String host) {
        assertFalse(HostSyntax.isIpv4(host));
        assertNotNull(HostSyntax.check(host), host);
    }

    @ParameterizedTest
    @ValueSource(strings = {"a", "a-b.example", "node0.example", "xn--bcher-kva.example", "a.b.c.d", "1a.example",
        "example.123a", "a1-2b.c"})
    void acceptsLowerCaseLdhNames(String host) {
        assertFalse(HostSyntax.isIpv4(host));
        assertNull(HostSyntax.check(host), host);
    }

    @ParameterizedTest
    @ValueSource(strings = {"a..b", "-a.com", "a-.com", "a.-b", "Host.com", "hosT.com", "a_b.com", "a b.com",
        "a.com.", ".a.com", "h\u00e9.com", "a\n.com", "a/b"})
    void refusesNamesThatAreNotLowerCaseLdhLabels(String host) {
        assertNotNull(HostSyntax.check(host), host);
    }

    @ParameterizedTest
    @ValueSource(strings = {"::1", "[::1]", "fe80::1", "a:80", "[a]"})
    void refusesIpv6AndPorts(String host) {
        assertTrue(HostSyntax.check(host).contains("IPv6"), host);
    }

    @Test
    void refusesEmptyHost() {
        assertNotNull(HostSyntax.check(""));
    }

    @Test
    void acceptsLabelOf63AndRefuses64() {
        assertNull(HostSyntax.check("a".repeat(63) + ".example"));
        assertNotNull(HostSyntax.check("a".repeat(64) + ".example"));
    }

    @Test
    void acceptsName253BytesLongAndRefuses254() {
        String label = "a".repeat(63);
        String n253 = label + "." + label + "." + label + "." + "a".repeat(61);
        assertEquals(253, n253.length());
        assertNull(HostSyntax.check(n253));
        assertNotNull(HostSyntax.check(n253 + "a"));
    }

    @Test
    void faultNeverCarriesControlCharacters() {
        String fault = HostSyntax.check("a\n\u001b[31m.com");
        assertFalse(fault.chars().anyMatch(c -> c < 0x20 || c == 0x7f), fault);
    }

    @Test
    void normalizeLowerCasesAndStripsOneTrailingDot() {
        assertEquals("host.example", HostSyntax.normalize("Host.EXAMPLE."));
        assertEquals("a.", HostSyntax.normalize("A.."));
        assertEquals("1.2.3.4", HostSyntax.normalize("1.2.3.4"));
    }

    @Test
    void normalizeLeavesNonAsciiLookAlikesToBeRefused() {
        // U+212A KELVIN SIGN lower-cases to 'k' under Unicode rules; it must not become a valid name.
        String kelvin = "\u212Aa.example";
        assertNotNull(HostSyntax.check(HostSyntax.normalize(kelvin)));
    }
}
