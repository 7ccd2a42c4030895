package org.sperli.jobspec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sperli.ErrorCode;
import org.sperli.SperliException;

/** The refused-host policy: sources, suffix matching, case, trailing dots, IPv4 exactness, the deny file. */
class RefusedHostPolicyTest {
    @TempDir
    Path dir;

    private final List<String> warnings = new ArrayList<>();

    @Test
    void aNameRefusesItselfAndEveryDomainBelowIt() {
        RefusedHostPolicy p = fromVariable("example.com");
        assertRefused(p, "example.com", "host 'example.com' is 'example.com' from SPERLI_REFUSED_HOSTS");
        assertRefused(p, "a.example.com", "host 'a.example.com' is below 'example.com' from SPERLI_REFUSED_HOSTS");
        assertRefused(p, "x.y.example.com", "is below 'example.com'");
    }

    @Test
    void lookAlikesThatAreNotBelowTheNamePass() {
        RefusedHostPolicy p = fromVariable("example.com");
        assertAllowed(p, "notexample.com");
        assertAllowed(p, "example.com.evil");
        assertAllowed(p, "example.co");
        assertAllowed(p, "com");
        assertAllowed(p, "xexample.com");
    }

    @Test
    void letterCaseAndATrailingDotDoNotMatterOnEitherSide() {
        assertRefused(fromVariable("example.com"), "A.Example.COM.", "below 'example.com'");
        assertRefused(fromVariable("EXAMPLE.Com."), "a.example.com", "below 'example.com'");
        assertRefused(fromVariable("example.com"), "example.com.", "is 'example.com'");
    }

    @Test
    void anIpv4EntryRefusesOnlyThatExactAddress() {
        RefusedHostPolicy p = fromVariable("10.0.0.1");
        assertRefused(p, "10.0.0.1", "is the address '10.0.0.1' from SPERLI_REFUSED_HOSTS");
        assertAllowed(p, "10.0.0.10");
        assertAllowed(p, "110.0.0.1");
        assertAllowed(p, "x.10.0.0.1");
    }

    @Test
    void anAddressIsNotBelowANameThatEndsLikeIt() {
        assertAllowed(fromVariable("0.1"), "10.0.0.1");
    }

    @Test
    void variableNamesAreSeparatedByCommasBlanksAndLineEnds() {
        RefusedHostPolicy p = fromVariable(" a.example,b.example  c.example\nd.example\r\ne.example\t,,f.example ");
        for (String host : List.of("a.example", "b.example", "c.example", "d.example", "e.example", "f.example")) {
            assertRefused(p, host, "from SPERLI_REFUSED_HOSTS");
        }
        assertAllowed(p, "g.example");
    }

    @Test
    void builtInNamesAreAlwaysRefused() {
        RefusedHostPolicy p = fromVariable("example.com");
        assertRefused(p, "host-a.invalid", "from the built-in reserved names");
        assertRefused(p, "HOST-B.invalid.", "from the built-in reserved names");
        assertRefused(p, "x.host-b.invalid", "below 'host-b.invalid'");
        assertAllowed(p, "host-c.invalid");
    }

    @Test
    void unsetVariableRefusesOnlyTheBuiltInNames() {
        RefusedHostPolicy p = RefusedHostPolicy.fromEnvironment(Map.of(), null, warnings::add);
        assertEquals(List.of("host-a.invalid", "host-b.invalid"), p.entries());
        assertAllowed(p, "example.com");
        assertTrue(warnings.isEmpty(), warnings.toString());
    }

    @Test
    void denyFileAddsNamesAndAllowsBlankLinesAndComments() throws IOException {
        Path file = Files.writeString(dir.resolve("deny"), "# lab machines\n\nlab.example\n  gpu7.example  # broken\n"
                + "10.9.8.7\n");
        RefusedHostPolicy p = RefusedHostPolicy.fromEnvironment(
                Map.of(RefusedHostPolicy.ENV_VARIABLE, "example.com"), file, warnings::add);
        assertRefused(p, "a.lab.example", "below 'lab.example' from deny file " + file + " line 3");
        assertRefused(p, "gpu7.example", "from deny file " + file + " line 4");
        assertRefused(p, "10.9.8.7", "line 5");
        assertRefused(p, "www.example.com", "from SPERLI_REFUSED_HOSTS");
        assertAllowed(p, "broken");
        assertTrue(warnings.isEmpty(), warnings.toString());
    }

    @Test
    void emptyDenyFileLeavesTheVariablesNamesRefused() throws IOException {
        Path file = Files.writeString(dir.resolve("deny"), "");
        RefusedHostPolicy p = RefusedHostPolicy.fromEnvironment(
                Map.of(RefusedHostPolicy.ENV_VARIABLE, "example.com"), file, warnings::add);
        assertRefused(p, "a.example.com", "from SPERLI_REFUSED_HOSTS");
        assertRefused(p, "host-a.invalid", "built-in");
        assertTrue(warnings.isEmpty(), warnings.toString());
    }

    @Test
    void missingDenyFileWarnsNamingThePathAndLeavesTheVariablesNamesRefused() {
        Path file = dir.resolve("no-such-file");
        RefusedHostPolicy p = RefusedHostPolicy.fromEnvironment(
                Map.of(RefusedHostPolicy.ENV_VARIABLE, "example.com"), file, warnings::add);
        assertRefused(p, "a.example.com", "from SPERLI_REFUSED_HOSTS");
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains(file.toString()), warnings.get(0));
    }

    @Test
    void unreadableDenyFileIsAnErrorNotAnEmptyPolicy() throws IOException {
        Path directory = Files.createDirectory(dir.resolve("a-directory"));
        assertThrows(UncheckedIOException.class,
                () -> RefusedHostPolicy.fromEnvironment(Map.of(), directory, warnings::add));
    }

    /** Issue 17 point 3: a deny file that is no regular file is refused in one line, without being opened. */
    @Test
    void aDenyFileThatIsAFifoOrADirectoryIsRefusedWithoutOpeningIt() throws Exception {
        Path fifo = dir.resolve("fifo");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
        assumeTrue(mkfifo.waitFor(5, TimeUnit.SECONDS) && mkfifo.exitValue() == 0, "mkfifo is not available here");
        // Opening a FIFO with no writer blocks: a regression would hang, so the bound turns it into a failure.
        UncheckedIOException e = assertTimeoutPreemptively(Duration.ofSeconds(5), () -> assertThrows(
                UncheckedIOException.class, () -> RefusedHostPolicy.fromEnvironment(Map.of(), fifo, warnings::add)));
        assertEquals("deny file " + fifo + " is not a regular file (a FIFO, socket or device), expected a regular"
                + " file", e.getMessage());
        UncheckedIOException d = assertThrows(UncheckedIOException.class,
                () -> RefusedHostPolicy.fromEnvironment(Map.of(), dir, warnings::add));
        assertEquals("deny file " + dir + " is a directory, expected a regular file", d.getMessage());
    }

    @Test
    void aBinaryOrOversizedDenyFileIsNamedAsSuch() throws IOException {
        Path binary = Files.write(dir.resolve("binary"), new byte[] {'h', (byte) 0xff, (byte) 0xfe, '\n'});
        UncheckedIOException b = assertThrows(UncheckedIOException.class,
                () -> RefusedHostPolicy.fromEnvironment(Map.of(), binary, warnings::add));
        assertEquals("deny file " + binary + " is not UTF-8 text (a binary file?)", b.getMessage());
        Path big = Files.write(dir.resolve("big"), new byte[RefusedHostPolicy.MAX_DENY_FILE_BYTES + 1]);
        UncheckedIOException g = assertThrows(UncheckedIOException.class,
                () -> RefusedHostPolicy.fromEnvironment(Map.of(), big, warnings::add));
        assertEquals("deny file " + big + " is larger than " + RefusedHostPolicy.MAX_DENY_FILE_BYTES + " bytes",
                g.getMessage());
    }

    @Test
    void entryThatCanMatchNothingIsKeptWithAWarning() {
        RefusedHostPolicy p = RefusedHostPolicy.fromEnvironment(
                Map.of(RefusedHostPolicy.ENV_VARIABLE, "*.example.com,example.org"), null, warnings::add);
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("'*.example.com'"), warnings.get(0));
        assertRefused(p, "example.org", "from SPERLI_REFUSED_HOSTS");
    }

    @Test
    void firstSourceToNameAnEntryIsTheOneReported() {
        assertRefused(fromVariable("host-a.invalid"), "host-a.invalid", "built-in");
    }

    @Test
    void checkRefusesWithH1615() {
        RefusedHostPolicy p = fromVariable("example.com");
        SperliException e = assertThrows(SperliException.class, () -> p.check("a.example.com"));
        assertEquals(ErrorCode.H1615, e.code());
        assertTrue(e.getMessage().startsWith("H1615 "), e.getMessage());
        p.check("example.org");
    }

    private RefusedHostPolicy fromVariable(String value) {
        return RefusedHostPolicy.fromEnvironment(Map.of(RefusedHostPolicy.ENV_VARIABLE, value), null, warnings::add);
    }

    private static void assertRefused(RefusedHostPolicy p, String host, String reasonPart) {
        Optional<String> reason = p.refusal(host);
        assertTrue(reason.isPresent(), () -> host + " should be refused");
        assertTrue(reason.get().contains(reasonPart), reason.get());
    }

    private static void assertAllowed(RefusedHostPolicy p, String host) {
        assertEquals(Optional.empty(), p.refusal(host), host);
    }
}
