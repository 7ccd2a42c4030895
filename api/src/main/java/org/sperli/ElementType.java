package org.sperli;

/**
 * Element types of reduce data (tables section 5). Elements are {@link #width()} bytes, least significant first.
 */
public enum ElementType {
    BYTES(0, 1),
    I32(1, 4),
    U32(2, 4),
    I64(3, 8),
    U64(4, 8),
    F32(5, 4),
    F64(6, 8);

    private static final ElementType[] BY_CODE = values();

    private final int code;
    private final int width;

    ElementType(int code, int width) {
        this.code = code;
        this.width = width;
    }

    /** The wire code, 0..6. */
    public int code() {
        return code;
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
