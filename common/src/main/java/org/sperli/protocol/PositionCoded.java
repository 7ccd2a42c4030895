package org.sperli.protocol;

/**
 * An enum of the tables whose wire code is its position counted from 1. A code written beside each constant could
 * disagree with the order a lookup indexes by; a position cannot, so such an enum only ever grows at its end.
 */
public interface PositionCoded {
    /** The enum's own {@link Enum#ordinal()}. */
    int ordinal();

    /** The wire code: the position counted from 1. */
    default int code() {
        return ordinal() + 1;
    }

    /** The constant of {@code byCode} (the enum's {@code values()}) with this wire code, or {@code null}. */
    static <E extends PositionCoded> E ofCode(E[] byCode, long code) {
        return code >= 1 && code <= byCode.length ? byCode[(int) code - 1] : null;
    }
}
