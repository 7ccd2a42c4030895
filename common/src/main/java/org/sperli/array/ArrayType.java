package org.sperli.array;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.sperli.ElementType;
import org.sperli.ErrorCode;
import org.sperli.ReduceOp;
import org.sperli.SperliException;
import org.sperli.collective.Combine;

/**
 * What SPERLI needs of an array type: the narrow interface of the protocol's "Interface to the array type". SPERLI has
 * no array structure and no serialization of its own; a type that implements this interface can be sent by
 * {@link org.sperli.Communicator}'s bcast, gather, scatter, reduce, allreduce and send/recv without the user writing a
 * byte of serialization. Ready instances are in {@link ArrayTypes}.
 *
 * <p><b>What an implementation must guarantee.</b>
 * <ul>
 *   <li>Elements are written least significant byte first (little endian), {@link ElementType#width()} bytes each,
 *       whatever the byte order of the buffer; floats with their raw bits, so NaN payloads survive.</li>
 *   <li>A flat array ({@link #isFlat()}) encodes as its elements only: no header, no length, no padding, so that its
 *       encoding is exactly the bytes {@link Combine} reduces. A type with a shape may carry the shape in its
 *       encoding (a header before the elements, as {@link ArrayTypes#MATRIX_2D} does).</li>
 *   <li>{@link #encode} writes exactly {@link #encodedLength} bytes and refuses what {@link #decode} would refuse.</li>
 *   <li>{@link #decode} reads the value that <em>all</em> remaining bytes encode. It fails with {@link SperliException}
 *       H1618 on a cut or wrong input (a length that is not a whole number of elements, a header that does not match
 *       the bytes that follow, trailing bytes) and then leaves the buffer's position where it was. It never allocates
 *       from a length it has not checked: every count read from the bytes is compared, in overflow-safe arithmetic,
 *       with the bytes remaining before anything is allocated, so a decode allocates at most about as much as it was
 *       given. Everything SPERLI hands to decode came in one frame, at most
 *       {@link org.sperli.protocol.Limits#MAX_PAYLOAD} bytes.</li>
 *   <li>{@link #reduce} folds two values of the same shape and element type into a new value of that shape (which
 *       encodes to the same length: allreduce refuses a result of another length, H1617) and refuses values whose
 *       shapes or element types differ with H1618 and a message that names both shapes.</li>
 *   <li>Instances are stateless and safe to share between threads; every rank of a job uses the same type for a
 *       call.</li>
 * </ul>
 *
 * <p><b>How the collectives use it.</b> bcast, gather and scatter send {@link #encode}d bytes and {@link #decode}
 * them on arrival. reduce and allreduce of a flat value run the byte collective with the value's element type, so
 * that {@link Combine} folds the elements on the wire bytes; a value with a shape is encoded, sent to the root, and
 * there decoded and folded with {@link #reduce} in ascending rank order ((c0 op c1) op c2) ..., the root's own value
 * in its rank's place. Both carry the value's element type and the operation in the collective header, and both
 * refuse a pair that tables section 5 does not allow (H1618 on every rank before anything is sent).
 *
 * @param <T> the Java type of the values, for example {@code double[]} or {@link Matrix2D}
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
     * encoding n times the width) and {@link #reduce} is {@link Combine} over them. Then reduce and allreduce let
     * {@code Combine} fold the wire bytes and never decode at the root. The default, {@code false}, is always correct:
     * the root decodes the contributions and folds them with {@link #reduce}.
     */
    default boolean isFlat() {
        return false;
    }

    /**
     * The reduction hook: {@code a op b}, element by element, {@code a} the left operand; neither is changed. The
     * default serves every type whose encoding is the elements, after a header (if any) that is equal for equal
     * shapes: it checks that shapes and element types agree and the headers are equal, combines the trailing
     * elements with {@link Combine} and decodes the result. A type whose encoding is laid out otherwise overrides it.
     *
     * @throws SperliException H1618 when the shapes or element types differ, or the type and operation do not go
     *     together (tables section 5)
     */
    default T reduce(T a, T b, ReduceOp op) {
        long[] shapeA = shape(a);
        long[] shapeB = shape(b);
        if (!Arrays.equals(shapeA, shapeB)) {
            throw ArrayTypes.refused("shapes differ: " + Arrays.toString(shapeA) + " and " + Arrays.toString(shapeB));
        }
        ElementType type = elementType(a);
        if (elementType(b) != type) {
            throw ArrayTypes.refused("element types differ: " + type + " and " + elementType(b));
        }
        byte[] x = ArrayTypes.toBytes(this, a);
        byte[] y = ArrayTypes.toBytes(this, b);
        long elements = ArrayTypes.elements(shapeA);
        long elementBytes = elements * type.width();
        long header = x.length - elementBytes;
        if (elements > x.length / type.width() || x.length != y.length
                || !Arrays.equals(x, 0, (int) header, y, 0, (int) header)) {
            throw new SperliException(ErrorCode.H1618, "the default reduce needs [header][elements] with equal"
                    + " headers; " + getClass().getName() + " must supply its own reduce");
        }
        Combine.into(ByteBuffer.wrap(x, (int) header, (int) elementBytes), ByteBuffer.wrap(y, (int) header,
                (int) elementBytes), type, op);
        return decode(ByteBuffer.wrap(x));
    }
}
