package org.sperli;

/**
 * Element types of reduce data (tables section 5). Elements are {@link #width()} bytes, least significant first.
 *
 * <p>The wire code is the position, from 0: BYTES = 0, I32 = 1, U32 = 2, I64 = 3, U64 = 4, F32 = 5, F64 = 6. A code
 * written beside each constant could disagree with the order that {@link #ofCode} indexes by, so new types are
 * appended, never inserted.
 */
public enum ElementType {
    BYTES(1),
    I32(4),
    U32(4),
    I64(8),
    U64(8),
    F32(4),
    F64(8);

    private static final ElementType[] BY_CODE = values();

    private final int width;

    ElementType(int width) {
        this.width = width;
    }

    /** The wire code, 0..6. */
    public int code() {
        return ordinal();
    }

    /** Bytes per element: 1, 4 or 8. */
    public int width() {
        return width;
    }

    public boolean isFloat() {
        return this == F32 || this == F64;
    }

    public boolean isSigned() {
        return this == I32 || this == I64;
    }

    /** The type with this wire code, or {@code null} when the code is above 6 (or negative). */
    public static ElementType ofCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
