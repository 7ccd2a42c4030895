package org.sperli;

/**
 * Reduce operations (tables section 5). Code 0 and codes above 10 are refused with H1618.
 *
 * <p>The wire code is the position, from 1, as {@link #ofCode} indexes by it: SUM = 1, PROD = 2, MIN = 3, MAX = 4,
 * LAND = 5, LOR = 6, LXOR = 7, BAND = 8, BOR = 9, BXOR = 10. New operations are appended.
 */
public enum ReduceOp {
    SUM,
    PROD,
    MIN,
    MAX,
    LAND,
    LOR,
    LXOR,
    BAND,
    BOR,
    BXOR;

    private static final ReduceOp[] BY_CODE = values();

    /** The wire code, 1..10. */
    public int code() {
        return ordinal() + 1;
    }

    public boolean isLogical() {
        return this == LAND || this == LOR || this == LXOR;
    }

    public boolean isBitwise() {
        return this == BAND || this == BOR || this == BXOR;
    }

    /** Whether the operation is defined for the type (the table of section 5); every other pair is H1618. */
    public boolean allowedFor(ElementType type) {
        if (type == ElementType.BYTES) {
            return isBitwise();
        }
        if (type.isFloat()) {
            return !isLogical() && !isBitwise();
        }
        return true;
    }

    /** The operation with this wire code, or {@code null} for 0 and codes above 10. */
    public static ReduceOp ofCode(int code) {
        return code >= 1 && code <= BY_CODE.length ? BY_CODE[code - 1] : null;
    }
}
