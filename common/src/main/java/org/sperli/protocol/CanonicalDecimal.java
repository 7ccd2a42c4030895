package org.sperli.protocol;

/**
 * Numbers in names the protocol makes (epoch directories, the rank in a certificate's subject): decimal digits only,
 * no sign, no leading zero, so that each number has exactly one name and a lookalike is never taken for it.
 */
public final class CanonicalDecimal {
    private CanonicalDecimal() {
    }

    /**
     * The value of {@code text}, or -1 when it is not the canonical decimal of a number in 0..{@code max}
     * ({@code max} not negative).
     */
    public static long parse(String text, long max) {
        if (text.isEmpty() || text.length() > Long.toString(max).length()
                || (text.length() > 1 && text.charAt(0) == '0')) {
            return -1;
        }
        long value = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            int digit = c - '0';
            // Checked before the step, so that no length of digits can overflow past max into a negative value.
            if (value > (max - digit) / 10) {
                return -1;
            }
            value = value * 10 + digit;
        }
        return value;
    }
}
