package org.sperli.collective;

import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.util.Locale;
import java.util.Objects;
import org.sperli.Communicator;
import org.sperli.ElementType;
import org.sperli.ErrorCode;
import org.sperli.ReduceOp;
import org.sperli.SperliException;

/**
 * The reduce arithmetic of tables section 5: one contribution combined into another, element by element.
 *
 * <p>Elements are {@code width} bytes, least significant first. Integer sum and product wrap modulo 2^bits; min and
 * max use signed order for i32/i64 and unsigned order for u32/u64; land, lor and lxor give 1 or 0 in the element
 * width; band, bor and bxor are bitwise (the only operations on bytes). Float sum and product are IEEE 754 in the
 * element's own precision, round to nearest even; float min and max are NaN when either operand is NaN and order
 * -0.0 below +0.0; every NaN a float operation produces is written as the canonical quiet NaN (f32 {@code 0x7fc00000},
 * f64 {@code 0x7ff8000000000000}); subnormals are kept.
 *
 * <p><b>Fold order.</b> Float sum and product are not associative: {@code (c0 + c1) + c2} and {@code c0 + (c1 + c2)}
 * may differ in the last bit or overflow differently. Nothing here assumes associativity. The caller folds
 * contributions left in ascending rank order, {@code ((c0 op c1) op c2) ...}, by calling {@code into(acc, c_r)} with
 * the accumulator as the left operand for r = 1, 2, ... in turn; any other grouping (a tree, arrival order) gives
 * results that are not bit-exact across implementations. Every operation here is commutative (NaNs are canonical and
 * min/max order the zeros), so only the grouping matters, but the accumulator is still defined as the left operand.
 *
 * <p>{@link #check} is the argument check a rank makes alone before anything is sent (H1618), including the limit on
 * collective data. The {@code into} methods check only what the arithmetic needs (a type and operation that go
 * together, whole elements, equal lengths) and accept data of any size, so a caller may combine blocks larger than one
 * frame. They never allocate per element: array-backed buffers and arrays allocate nothing, a direct or read-only
 * buffer one stage of at most 8 KiB per call.
 */
public final class Combine {
    /**
     * Bytes staged per step for a buffer without an accessible array: a multiple of every element width, and small
     * enough that the stages of both operands stay in a 32 KiB L1 data cache.
     */
    static final int STAGE_BYTES = 8192;

    private Combine() {
    }

    /**
     * The argument checks every rank makes alone before a reduce or allreduce sends anything, in this order:
     * operation 1..10, type 0..6, type and operation allowed together, data a whole number of elements, data at most
     * {@link Communicator#MAX_COLLECTIVE_DATA} bytes.
     *
     * @throws SperliException H1618 naming the first field that fails and its value
     */
    public static void check(int elementTypeCode, int reduceOpCode, long dataLength) {
        ReduceOp op = ReduceOp.ofCode(reduceOpCode);
        if (op == null) {
            throw refused("reduce operation=" + reduceOpCode + ", allowed 1..10");
        }
        ElementType type = ElementType.ofCode(elementTypeCode);
        if (type == null) {
            throw refused("element type=" + elementTypeCode + ", allowed 0..6");
        }
        check(type, op, dataLength);
    }

    /** {@link #check(int, int, long)} for a type and an operation already decoded. */
    public static void check(ElementType type, ReduceOp op, long dataLength) {
        requireAllowed(type, op);
        requireWholeElements(type, dataLength);
        if (dataLength > Communicator.MAX_COLLECTIVE_DATA) {
            throw refused("data length=" + dataLength + ", maximum " + Communicator.MAX_COLLECTIVE_DATA);
        }
    }

    /**
     * acc = acc op b, element by element, in place, over {@code acc}'s and {@code b}'s bytes from position to limit.
     * Neither buffer's position, limit or byte order changes, and bytes outside position..limit are not touched. The
     * buffers may be heap or direct and must not overlap unless they cover exactly the same bytes.
     *
     * @throws SperliException H1618 when the type and operation do not go together, the lengths differ, or the
     *     length is not a whole number of elements; nothing has been written then
     * @throws ReadOnlyBufferException when {@code acc} is read-only, before anything is written
     */
    public static void into(ByteBuffer acc, ByteBuffer b, ElementType type, ReduceOp op) {
        Objects.requireNonNull(acc, "acc");
        Objects.requireNonNull(b, "b");
        requireAllowed(type, op);
        int n = acc.remaining();
        if (b.remaining() != n) {
            throw refused("contributions of different length: " + n + " and " + b.remaining() + " bytes");
        }
        requireWholeElements(type, n);
        if (acc.isReadOnly()) {
            throw new ReadOnlyBufferException();
        }
        run(select(type, op), acc, b, n);
    }

    /** acc = acc op b over whole arrays; see {@link #into(ByteBuffer, ByteBuffer, ElementType, ReduceOp)}. */
    public static void into(byte[] acc, byte[] b, ElementType type, ReduceOp op) {
        into(ByteBuffer.wrap(acc), ByteBuffer.wrap(b), type, op);
    }

    /** A new array holding a op b; {@code a} and {@code b} are not changed. */
    public static byte[] combine(byte[] a, byte[] b, ElementType type, ReduceOp op) {
        Objects.requireNonNull(a, "a");
        byte[] result = a.clone();
        into(result, b, type, op);
        return result;
    }

    /**
     * acc = acc op b for i32 ({@code unsigned} false) or u32 elements held in an {@code int[]} (a u32 is the
     * {@code int} with the same 32 bits). Bit-identical to the byte form on the little-endian encoding.
     *
     * @throws SperliException H1618 when the arrays differ in length
     */
    public static void into(int[] acc, int[] b, ReduceOp op, boolean unsigned) {
        requireSameLength(acc.length, b.length, 4);
        Int32Kernels.apply(acc, b, Objects.requireNonNull(op, "op"), unsigned);
    }

    /**
     * acc = acc op b for i64 or u64 elements held in a {@code long[]}; see
     * {@link #into(int[], int[], ReduceOp, boolean)}.
     */
    public static void into(long[] acc, long[] b, ReduceOp op, boolean unsigned) {
        requireSameLength(acc.length, b.length, 8);
        Int64Kernels.apply(acc, b, Objects.requireNonNull(op, "op"), unsigned);
    }

    /**
     * acc = acc op b for f32 elements; NaN results are stored with the canonical NaN's raw bits.
     *
     * @throws SperliException H1618 for an operation floats do not allow, or arrays of different length
     */
    public static void into(float[] acc, float[] b, ReduceOp op) {
        requireAllowed(ElementType.F32, op);
        requireSameLength(acc.length, b.length, 4);
        F32Kernels.apply(acc, b, op);
    }

    /** acc = acc op b for f64 elements; as {@link #into(float[], float[], ReduceOp)}. */
    public static void into(double[] acc, double[] b, ReduceOp op) {
        requireAllowed(ElementType.F64, op);
        requireSameLength(acc.length, b.length, 8);
        F64Kernels.apply(acc, b, op);
    }

    /** The loop for the pair, chosen once per call; bitwise loops serve every type that allows them. */
    private static ByteKernel select(ElementType type, ReduceOp op) {
        if (op.isBitwise()) {
            return BitwiseKernels.select(op);
        }
        return switch (type) {
            case I32, U32 -> Int32Kernels.select(op, type == ElementType.U32);
            case I64, U64 -> Int64Kernels.select(op, type == ElementType.U64);
            case F32 -> F32Kernels.select(op);
            case F64 -> F64Kernels.select(op);
            case BYTES -> throw new AssertionError("bytes allow only bitwise operations, checked before");
        };
    }

    /**
     * Runs the kernel over {@code n} bytes from each buffer's position. Array-backed buffers are worked on in place.
     * A direct or read-only buffer is copied through a heap stage of at most {@link #STAGE_BYTES} bytes at a time (and
     * {@code acc}'s stage copied back), so that the kernels only ever see arrays; see {@link LittleEndian} for why.
     */
    private static void run(ByteKernel kernel, ByteBuffer acc, ByteBuffer b, int n) {
        int accStart = acc.position();
        int bStart = b.position();
        if (acc.hasArray() && b.hasArray()) {
            kernel.apply(acc.array(), acc.arrayOffset() + accStart, b.array(), b.arrayOffset() + bStart, n);
            return;
        }
        int stage = Math.min(n, STAGE_BYTES);
        byte[] accStage = acc.hasArray() ? null : new byte[stage];
        byte[] bStage = b.hasArray() ? null : new byte[stage];
        for (int done = 0; done < n; done += stage) {
            int length = Math.min(stage, n - done);
            int accAt = accStart + done;
            int bAt = bStart + done;
            kernel.apply(staged(acc, accStage, accAt, length), offsetIn(acc, accStage, accAt),
                    staged(b, bStage, bAt, length), offsetIn(b, bStage, bAt), length);
            if (accStage != null) {
                acc.put(accAt, accStage, 0, length);
            }
        }
    }

    /** {@code buffer}'s own array when {@code stage} is null, else {@code stage} holding its bytes from {@code at}. */
    private static byte[] staged(ByteBuffer buffer, byte[] stage, int at, int length) {
        if (stage == null) {
            return buffer.array();
        }
        buffer.get(at, stage, 0, length);
        return stage;
    }

    /** Where byte {@code at} of {@code buffer} lies in the array {@link #staged} gave for it. */
    private static int offsetIn(ByteBuffer buffer, byte[] stage, int at) {
        return stage == null ? buffer.arrayOffset() + at : 0;
    }

    private static void requireAllowed(ElementType type, ReduceOp op) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(op, "op");
        if (!op.allowedFor(type)) {
            throw refused("reduce operation=" + name(op) + " (" + op.code() + ") not allowed for element type="
                    + name(type) + " (" + type.code() + ")");
        }
    }

    private static void requireWholeElements(ElementType type, long dataLength) {
        if (dataLength < 0) {
            throw refused("data length=" + dataLength + ", must not be negative");
        }
        if (dataLength % type.width() != 0) {
            throw refused("data length=" + dataLength + " is not a whole number of " + type.width() + "-byte "
                    + name(type) + " elements");
        }
    }

    private static void requireSameLength(int accElements, int bElements, int width) {
        if (accElements != bElements) {
            throw refused("contributions of different length: " + (long) accElements * width + " and "
                    + (long) bElements * width + " bytes");
        }
    }

    private static String name(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT);
    }

    private static SperliException refused(String reason) {
        return new SperliException(ErrorCode.H1618, reason);
    }
}
