package org.sperli;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * What SPERLI needs of an array type: the narrow interface of the protocol's "Interface to the array type". SPERLI has
 * no array structure and no serialization of its own; a type that implements this interface can be sent by
 * {@link Communicator}'s bcast, gather, scatter, reduce, allreduce and send/recv without the user writing a
 * byte of serialization. Ready instances are in {@link org.sperli.array.ArrayTypes}.
 *
 * <p><b>What an implementation must guarantee.</b>
 * <ul>
 *   <li>Elements are written least significant byte first (little endian), {@link ElementType#width()} bytes each,
 *       whatever the byte order of the buffer; floats with their raw bits, so NaN payloads survive.</li>
 *   <li>A flat array ({@link #isFlat()}) encodes as its elements only: no header, no length, no padding, so that its
 *       encoding is exactly the bytes {@link org.sperli.collective.Combine} reduces. A type with a shape may carry the
 * shape in its
 *       encoding (a header before the elements, as {@link org.sperli.array.ArrayTypes#MATRIX_2D} does).</li>
 *   <li>{@link #encode} writes exactly {@link #encodedLength} bytes and refuses what {@link #decode} would refuse.</li>
 *   <li>{@link #decode} reads the value that <em>all</em> remaining bytes encode. It fails with {@link SperliException}
 *       H1618 on a cut or wrong input (a length that is not a whole number of elements, a header that does not match
 *       the bytes that follow, trailing bytes) and then leaves the buffer's position where it was. It never allocates
 *       from a length it has not checked: every count read from the bytes is compared, in overflow-safe arithmetic,
 *       with the bytes remaining before anything is allocated, so a decode allocates at most about as much as it was
 *       given. Everything SPERLI hands to decode came in one frame, at most
 *       {@link Communicator#MAX_MESSAGE} bytes (16 MiB).</li>
 *   <li>{@link #reduce} folds two values of the same shape and element type into a new value of that shape (which
 *       encodes to the same length: allreduce refuses a result of another length, H1617) and refuses values whose
 *       shapes or element types differ with H1618 and a message that names both shapes.</li>
 *   <li>Instances are stateless and safe to share between threads; every rank of a job uses the same type for a
 *       call.</li>
 * </ul>
 *
 * <p><b>How the collectives use it.</b> bcast, gather and scatter send {@link #encode}d bytes and {@link #decode}
 * them on arrival. reduce and allreduce of a flat value run the byte collective with the value's element type, so
 * that {@link org.sperli.collective.Combine} folds the elements on the wire bytes; a value with a shape is encoded,
 * sent to the root, and
 * there decoded and folded with {@link #reduce} in ascending rank order ((c0 op c1) op c2) ..., the root's own value
 * in its rank's place. Both carry the value's element type and the operation in the collective header, and both
 * refuse a pair that tables section 5 does not allow (H1618 on every rank before anything is sent).
 *
 * @param <T> the Java type of the values, for example {@code double[]} or {@link org.sperli.array.Matrix2D}
 */
public interface ArrayType<T> {
    /**
     * Bytes {@link #encode} writes for {@code value}.
     *
     * @throws SperliException H1618 for a value this type cannot encode (for example, over 2 GiB of bytes)
     */
    int encodedLength(T value);

    /**
     * Writes {@code value} at the buffer's position, elements little endian, and advances the position by the
     * returned length. Nothing is written when the value is refused or the buffer has fewer than
     * {@link #encodedLength} bytes remaining (H1618).
     *
     * @return the bytes written, {@link #encodedLength}
     */
    int encode(T value, ByteBuffer buffer);

    /**
     * Reads the value that the bytes from position to limit encode and moves the position to the limit.
     *
     * @throws SperliException H1618 on a cut or wrong input, naming the field, the expected and the actual value;
     *     the position is not moved then
     */
    T decode(ByteBuffer bytes);

    /** The element type of the value's elements (tables section 5). */
    ElementType elementType(T value);

    /**
     * The extents of the value, outermost first: {@code {n}} for a flat array of n elements, {@code {rows, cols}} for
     * a row-major matrix. A new array each call.
     */
    long[] shape(T value);

    /**
     * Whether values are flat arrays: the encoding is exactly the elements ({@code shape} is {@code {n}} and the
     * encoding n times the width) and {@link #reduce} is {@link org.sperli.collective.Combine} over them. Then reduce
     * and allreduce let
     * {@code Combine} fold the wire bytes and never decode at the root. The default, {@code false}, is always correct:
     * the root decodes the contributions and folds them with {@link #reduce}.
     */
    default boolean isFlat() {
        return false;
    }

    /**
     * The reduction hook: {@code a op b}, element by element, {@code a} the left operand; neither is changed. A type
     * whose encoding is its elements after a header (if any) that is equal for equal shapes can answer with
     * {@link org.sperli.array.ArrayTypes#reduceElements}; a type laid out otherwise folds its own way.
     *
     * @throws SperliException H1618 when the shapes or element types differ, or the type and operation do not go
     *     together (tables section 5)
     */
    T reduce(T a, T b, ReduceOp op);

    /**
     * A new array holding the encoding of {@code value}.
     *
     * @throws SperliException H1618 when the type refuses the value
     */
    default byte[] toBytes(T value) {
        byte[] out = new byte[encodedLength(value)];
        int written = encode(value, ByteBuffer.wrap(out));
        if (written != out.length) {
            throw new IllegalStateException(this + " wrote " + written + " bytes, announced " + out.length);
        }
        return out;
    }

    /**
     * The value that all of {@code bytes} encode.
     *
     * @throws SperliException H1618 on a cut or wrong input
     */
    default T fromBytes(byte[] bytes) {
        return decode(ByteBuffer.wrap(Objects.requireNonNull(bytes, "bytes")));
    }
}
