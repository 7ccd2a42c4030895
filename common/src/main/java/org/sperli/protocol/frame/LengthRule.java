package org.sperli.protocol.frame;

/**
 * The payload lengths a frame type allows (tables section 2): every length from {@code min} to {@code max}, or, for
 * RESUME, one of two exact lengths. Made from the payload layouts' own constants by {@link FrameType#lengthRule}, so
 * the numbers exist once; {@link #toString} states the rule as a refusal names it ({@code 16..8208},
 * {@code exactly 8}, {@code 4 or 2558}).
 */
public record LengthRule(long min, long max, boolean onlyTheEnds) {
    /** Every length from {@code min} to {@code max}. */
    static LengthRule between(long min, long max) {
        return new LengthRule(min, max, false);
    }

    /** Exactly {@code length}. */
    static LengthRule exactly(long length) {
        return new LengthRule(length, length, false);
    }

    /** {@code shorter} or {@code longer}, nothing between. */
    static LengthRule either(long shorter, long longer) {
        return new LengthRule(shorter, longer, true);
    }

    /** Whether a payload of {@code length} bytes fits. */
    public boolean allows(long length) {
        return onlyTheEnds ? length == min || length == max : length >= min && length <= max;
    }

    @Override
    public String toString() {
        if (min == max) {
            return "exactly " + min;
        }
        return onlyTheEnds ? min + " or " + max : min + ".." + max;
    }
}
