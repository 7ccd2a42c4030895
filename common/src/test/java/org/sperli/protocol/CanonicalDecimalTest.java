package org.sperli.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** A number has one name: digits only, no sign, no leading zero, and nothing above the maximum, however long. */
class CanonicalDecimalTest {
    @Test
    void theCanonicalNamesAreRead() {
        assertEquals(0, CanonicalDecimal.parse("0", 10));
        assertEquals(10, CanonicalDecimal.parse("10", 10));
        assertEquals(4095, CanonicalDecimal.parse("4095", 4095));
        assertEquals(Long.MAX_VALUE, CanonicalDecimal.parse(Long.toString(Long.MAX_VALUE), Long.MAX_VALUE));
    }

    @Test
    void lookalikesAreNotNumbers() {
        for (String text : new String[] {"", "01", "00", "+1", "-1", "1 ", " 1", "1a", "١"}) {
            assertEquals(-1, CanonicalDecimal.parse(text, 4095), "'" + text + "'");
        }
    }

    @Test
    void aNumberAboveTheMaximumIsRefusedWithoutOverflow() {
        assertEquals(-1, CanonicalDecimal.parse("4096", 4095));
        assertEquals(-1, CanonicalDecimal.parse("9223372036854775808", Long.MAX_VALUE));
        assertEquals(-1, CanonicalDecimal.parse("9999999999999999999", Long.MAX_VALUE));
        assertEquals(-1, CanonicalDecimal.parse("99999999999999999999", Long.MAX_VALUE));
    }
}
