package org.sperli.jobspec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.sperli.ErrorCode;
import org.sperli.SperliException;

/**
 * Whatever the line, the parser gives a description or H1616, never another exception and never an allocation sized
 * by a length field (an OutOfMemoryError would fail the property); and what it accepts it writes back byte for byte.
 */
class JobDescriptionProperties {

    @Provide
    Arbitrary<JobDescription> descriptions() {
        return JobSpecArbitraries.descriptions();
    }

    @Provide
    Arbitrary<String> hexish() {
        return Arbitraries.strings().withChars("0123456789abcdef0123456789abcdefAg \r\n").ofMaxLength(600);
    }

    /** The parsed description, or null after asserting that the refusal is H1616. */
    private static JobDescription parseOrH1616(byte[] line) {
        try {
            return JobDescription.parseLine(line);
        } catch (SperliException e) {
            assertEquals(ErrorCode.H1616, e.code(), e.getMessage());
            return null;
        }
    }

    @Property(tries = 300)
    void validDescriptionsRoundTripThroughTheLine(@ForAll("descriptions") JobDescription d) throws IOException {
        JobDescription back = JobDescription.parse(new ByteArrayInputStream(d.toHexLineBytes()));
        assertEquals(d, back);
        assertArrayEquals(d.toBytes(), back.toBytes());
    }

    @Property(tries = 1000)
    void randomLinesGiveDescriptionOrH1616(@ForAll("hexish") String line) throws IOException {
        parseOrH1616(line.getBytes(StandardCharsets.US_ASCII));
        try {
            JobDescription.parse(new ByteArrayInputStream(line.getBytes(StandardCharsets.US_ASCII)));
        } catch (SperliException e) {
            assertEquals(ErrorCode.H1616, e.code(), e.getMessage());
        }
    }

    @Property(tries = 1000)
    void mutatedBytesGiveDescriptionOrH1616(@ForAll("descriptions") JobDescription d, @ForAll long seed) {
        byte[] mutated = Mutations.mutate(d.toBytes(), new Random(seed));
        JobDescription parsed = parseOrH1616(HexFormat.of().formatHex(mutated).getBytes(StandardCharsets.US_ASCII));
        if (parsed != null) {
            assertArrayEquals(mutated, parsed.toBytes());
        }
    }

    @Property(tries = 500)
    void mutatedLinesGiveDescriptionOrH1616(@ForAll("descriptions") JobDescription d, @ForAll long seed) {
        byte[] line = HexFormat.of().formatHex(d.toBytes()).getBytes(StandardCharsets.US_ASCII);
        Random random = new Random(seed);
        byte[] alphabet = "0123456789abcdefAFg\r\n .".getBytes(StandardCharsets.US_ASCII);
        for (int i = 1 + random.nextInt(3); i > 0; i--) {
            line[random.nextInt(line.length)] = alphabet[random.nextInt(alphabet.length)];
        }
        parseOrH1616(line);
    }
}
