package org.sperli.collective;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.ReadOnlyBufferException;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.sperli.ElementType;
import org.sperli.ErrorCode;
import org.sperli.ReduceOp;
import org.sperli.SperliException;
import org.sperli.protocol.Limits;

/** One rule of tables section 5 per test, on the byte form unless the name says otherwise. */
class CombineTest {
    private static final int F32_NAN = 0x7fc0_0000;
    private static final long F64_NAN = 0x7ff8_0000_0000_0000L;
    /** A signalling f32 NaN with a payload, and a negative quiet one: neither may come out as it went in. */
    private static final int F32_SNAN = 0x7fa0_0001;
    private static final int F32_NEG_NAN = 0xffc0_0000;
    private static final long F64_SNAN = 0x7ff4_0000_0000_0001L;

    // ---- argument checks, in the order of the check

    @Test
    void refusesOperationZero() {
        assertRefused("reduce operation=0, allowed 1..10", () -> Combine.check(1, 0, 4));
    }

    @Test
    void refusesOperationAbove10() {
        assertRefused("reduce operation=11, allowed 1..10", () -> Combine.check(1, 11, 4));
    }

    @Test
    void refusesTypeAbove6() {
        assertRefused("element type=7, allowed 0..6", () -> Combine.check(7, 1, 4));
    }

    @Test
    void checksOperationBeforeType() {
        assertRefused("reduce operation=0, allowed 1..10", () -> Combine.check(7, 0, 3));
    }

    @Test
    void refusesLogicalOperationOnFloatsWithH1618() {
        assertRefused("reduce operation=land (5) not allowed for element type=f32 (5)", () -> Combine.check(5, 5, 4));
        assertRefused("reduce operation=lxor (7) not allowed for element type=f64 (6)", () -> Combine.check(6, 7, 8));
    }

    @Test
    void refusesBitwiseOperationOnFloatsWithH1618() {
        assertRefused("reduce operation=bxor (10) not allowed for element type=f64 (6)", () -> Combine.check(6, 10, 8));
    }

    @Test
    void refusesSumOnBytesWithH1618() {
        assertRefused("reduce operation=sum (1) not allowed for element type=bytes (0)", () -> Combine.check(0, 1, 1));
    }

    @Test
    void checksTypeAndOperationBeforeLength() {
        assertRefused("reduce operation=sum (1) not allowed for element type=bytes (0)",
                () -> Combine.check(0, 1, Limits.MAX_COLLECTIVE_DATA + 1L));
    }

    @Test
    void refusesDataNotWholeElements() {
        assertRefused("data length=6 is not a whole number of 4-byte i32 elements", () -> Combine.check(1, 1, 6));
        assertRefused("data length=12 is not a whole number of 8-byte f64 elements", () -> Combine.check(6, 1, 12));
    }

    @Test
    void refusesNegativeDataLength() {
        assertRefused("data length=-8, must not be negative", () -> Combine.check(3, 1, -8));
    }

    @Test
    void checksWholeElementsBeforeLimit() {
        assertRefused("data length=16777202 is not a whole number of 4-byte u32 elements",
                () -> Combine.check(2, 1, 16_777_202));
    }

    @Test
    void refusesDataOver16777200Bytes() {
        assertEquals(16_777_200, Limits.MAX_COLLECTIVE_DATA);
        for (ElementType type : ElementType.values()) {
            ReduceOp op = type == ElementType.BYTES ? ReduceOp.BXOR : ReduceOp.MAX;
            assertDoesNotThrow(() -> Combine.check(type, op, 16_777_200 - type.width()));
            assertDoesNotThrow(() -> Combine.check(type, op, 16_777_200));
            assertRefused("data length=" + (16_777_200 + type.width()) + ", maximum 16777200",
                    () -> Combine.check(type, op, 16_777_200 + type.width()));
        }
    }

    @Test
    void acceptsEmptyData() {
        assertDoesNotThrow(() -> Combine.check(6, 1, 0));
        assertArrayEquals(new byte[0], Combine.combine(new byte[0], new byte[0], ElementType.F64, ReduceOp.SUM));
    }

    /** Section 5, one row per type code 0..7, one column per operation code 0..11: Y allowed, dot refused. */
    private static final String[] MATRIX = {
        //      op 0123456789AB
        /* bytes */ "........YYY.",
        /* i32   */ ".YYYYYYYYYY.",
        /* u32   */ ".YYYYYYYYYY.",
        /* i64   */ ".YYYYYYYYYY.",
        /* u64   */ ".YYYYYYYYYY.",
        /* f32   */ ".YYYY.......",
        /* f64   */ ".YYYY.......",
        /* 7     */ "............",
    };

    static Stream<Arguments> everyTypeAndOperationCode() {
        return IntStream.rangeClosed(0, 7).boxed()
                .flatMap(t -> IntStream.rangeClosed(0, 11).mapToObj(o -> Arguments.of(t, o)));
    }

    @ParameterizedTest(name = "type {0}, operation {1}")
    @MethodSource("everyTypeAndOperationCode")
    void typeAndOperationMatrixFollowsSection5(int typeCode, int opCode) {
        boolean allowed = MATRIX[typeCode].charAt(opCode) == 'Y';
        int width = typeCode <= 6 ? ElementType.ofCode(typeCode).width() : 8;
        if (allowed) {
            assertDoesNotThrow(() -> Combine.check(typeCode, opCode, 2L * width));
            byte[] a = new byte[2 * width];
            assertDoesNotThrow(() -> Combine.combine(a, a, ElementType.ofCode(typeCode), ReduceOp.ofCode(opCode)));
        } else {
            SperliException e = assertThrows(SperliException.class, () -> Combine.check(typeCode, opCode, width));
            assertEquals(ErrorCode.H1618, e.code());
            if (typeCode <= 6 && opCode >= 1 && opCode <= 10) {
                // The arithmetic refuses the same pairs, before it writes anything.
                byte[] acc = {1, 2, 3, 4, 5, 6, 7, 8};
                SperliException e2 = assertThrows(SperliException.class, () -> Combine.into(acc, acc.clone(),
                        ElementType.ofCode(typeCode), ReduceOp.ofCode(opCode)));
                assertEquals(ErrorCode.H1618, e2.code());
                assertArrayEquals(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}, acc);
            }
        }
    }

    // ---- arguments of the arithmetic

    @Test
    void refusesContributionsOfDifferentLengthWithoutWriting() {
        byte[] acc = i32(1, 2);
        SperliException e = assertThrows(SperliException.class,
                () -> Combine.into(acc, i32(1, 2, 3), ElementType.I32, ReduceOp.SUM));
        assertEquals(ErrorCode.H1618, e.code());
        assertEquals("contributions of different length: 8 and 12 bytes", e.reason());
        assertArrayEquals(i32(1, 2), acc);
    }

    @Test
    void refusesPartialElementsInTheArithmetic() {
        assertRefused("data length=6 is not a whole number of 4-byte f32 elements",
                () -> Combine.into(new byte[6], new byte[6], ElementType.F32, ReduceOp.SUM));
    }

    @Test
    void refusesReadOnlyAccumulatorBeforeWriting() {
        ByteBuffer acc = ByteBuffer.wrap(i32(1)).asReadOnlyBuffer();
        assertThrows(ReadOnlyBufferException.class,
                () -> Combine.into(acc, ByteBuffer.wrap(i32(1)), ElementType.I32, ReduceOp.SUM));
    }

    @Test
    void typedFormsRefuseDifferentLengthsAndFloatLogicWithH1618() {
        assertRefused("contributions of different length: 4 and 8 bytes",
                () -> Combine.into(new int[1], new int[2], ReduceOp.SUM, false));
        assertRefused("contributions of different length: 16 and 8 bytes",
                () -> Combine.into(new double[2], new double[1], ReduceOp.MAX));
        assertRefused("reduce operation=bor (9) not allowed for element type=f32 (5)",
                () -> Combine.into(new float[1], new float[1], ReduceOp.BOR));
    }

    // ---- buffers

    @Test
    void intoUsesPositionToLimitAndMovesNothing() {
        ByteBuffer acc = ByteBuffer.allocateDirect(16);
        for (int i = 0; i < 16; i++) {
            acc.put(i, (byte) 0xee);
        }
        acc.putInt(4, 0x0102_0304); // big-endian on purpose: the caller's order must neither matter nor change
        acc.position(4).limit(8);
        ByteBuffer b = ByteBuffer.wrap(new byte[] {9, 9, 9, 1, 0, 0, 0, 9}).position(3).limit(7);

        Combine.into(acc, b, ElementType.I32, ReduceOp.SUM);

        assertEquals(4, acc.position());
        assertEquals(8, acc.limit());
        assertEquals(ByteOrder.BIG_ENDIAN, acc.order());
        assertEquals(3, b.position());
        assertEquals(7, b.limit());
        assertEquals(0x0202_0304, acc.getInt(4)); // little-endian element: the +1 lands in the first byte
        ByteBuffer whole = acc.duplicate().clear();
        for (int i = 0; i < 16; i++) {
            if (i < 4 || i >= 8) {
                assertEquals((byte) 0xee, whole.get(i), "byte " + i + " outside position..limit");
            }
        }
    }

    /**
     * Direct and read-only buffers go through a heap stage of {@link Combine#STAGE_BYTES}; data of several stages plus
     * a partial one, at odd positions, must give the heap result for every allowed pair and every mix of buffers.
     */
    @Test
    void stagedBuffersOverSeveralStagesAgreeWithHeapArrays() {
        SplittableRandom random = new SplittableRandom(5);
        int n = 2 * Combine.STAGE_BYTES + 3 * 8;
        for (ElementType type : ElementType.values()) {
            for (ReduceOp op : ReduceOp.values()) {
                if (!op.allowedFor(type)) {
                    continue;
                }
                byte[] a = new byte[n];
                byte[] b = new byte[n];
                random.nextBytes(a);
                random.nextBytes(b);
                byte[] expected = Combine.combine(a, b, type, op);
                for (int mix = 0; mix < 8; mix++) {
                    ByteBuffer acc = placed(a, 3, (mix & 1) != 0, false);
                    ByteBuffer other = placed(b, 5, (mix & 2) != 0, (mix & 4) != 0);
                    Combine.into(acc, other, type, op);
                    byte[] out = new byte[n];
                    acc.get(3, out);
                    assertArrayEquals(expected, out, type + " " + op + " mix " + mix);
                }
            }
        }
    }

    private static ByteBuffer placed(byte[] data, int offset, boolean direct, boolean readOnly) {
        ByteBuffer buffer = direct ? ByteBuffer.allocateDirect(offset + data.length)
                : ByteBuffer.allocate(offset + data.length);
        buffer.put(offset, data).position(offset);
        return readOnly ? buffer.asReadOnlyBuffer() : buffer;
    }

    @Test
    void elementsAreLittleEndian() {
        assertArrayEquals(bytes(0x00, 0x01, 0x00, 0x00),
                Combine.combine(bytes(0xff, 0x00, 0x00, 0x00), bytes(0x01, 0x00, 0x00, 0x00),
                        ElementType.U32, ReduceOp.SUM));
    }

    @Test
    void combineLeavesBothInputsUnchanged() {
        byte[] a = i64(5);
        byte[] b = i64(7);
        assertArrayEquals(i64(12), Combine.combine(a, b, ElementType.I64, ReduceOp.SUM));
        assertArrayEquals(i64(5), a);
        assertArrayEquals(i64(7), b);
    }

    @Test
    void accumulatorMayBeItsOwnOperand() {
        ByteBuffer acc = ByteBuffer.wrap(i32(3, -4));
        Combine.into(acc, acc, ElementType.I32, ReduceOp.PROD);
        assertArrayEquals(i32(9, 16), acc.array());
    }

    // ---- integers

    @Test
    void sumOfI32WrapsModulo2To32() {
        assertCombines(i32(Integer.MIN_VALUE, 0), i32(Integer.MAX_VALUE, -1), i32(1, 1), ElementType.I32,
                ReduceOp.SUM);
    }

    @Test
    void sumOfU32WrapsModulo2To32() {
        assertCombines(i32(1), i32(0xffff_ffff), i32(2), ElementType.U32, ReduceOp.SUM);
    }

    @Test
    void sumOfI64WrapsModulo2To64() {
        assertCombines(i64(Long.MIN_VALUE), i64(Long.MAX_VALUE), i64(1), ElementType.I64, ReduceOp.SUM);
    }

    @Test
    void sumOfU64WrapsModulo2To64() {
        assertCombines(i64(0), i64(-1L), i64(1), ElementType.U64, ReduceOp.SUM);
    }

    @Test
    void prodOfI32WrapsModulo2To32() {
        assertCombines(i32(0, -2), i32(0x1_0000, Integer.MAX_VALUE), i32(0x1_0000, 2), ElementType.I32,
                ReduceOp.PROD);
    }

    @Test
    void prodOfU64WrapsModulo2To64() {
        assertCombines(i64(0, 0xffff_ffff_ffff_fffeL), i64(1L << 32, -1L), i64(1L << 32, 2), ElementType.U64,
                ReduceOp.PROD);
    }

    @Test
    void minOfI32UsesSignedOrder() {
        assertCombines(i32(-1, Integer.MIN_VALUE), i32(-1, 5), i32(1, Integer.MIN_VALUE), ElementType.I32,
                ReduceOp.MIN);
    }

    @Test
    void minOfU32UsesUnsignedOrder() {
        assertCombines(i32(1, 0x7fff_ffff), i32(0xffff_ffff, 0x7fff_ffff), i32(1, 0x8000_0000), ElementType.U32,
                ReduceOp.MIN);
    }

    @Test
    void maxOfI32UsesSignedOrder() {
        assertCombines(i32(1), i32(-1), i32(1), ElementType.I32, ReduceOp.MAX);
    }

    @Test
    void maxOfU32UsesUnsignedOrder() {
        assertCombines(i32(0xffff_ffff), i32(0xffff_ffff), i32(1), ElementType.U32, ReduceOp.MAX);
    }

    @Test
    void minOfI64UsesSignedOrder() {
        assertCombines(i64(Long.MIN_VALUE), i64(Long.MIN_VALUE), i64(Long.MAX_VALUE), ElementType.I64, ReduceOp.MIN);
    }

    @Test
    void minOfU64UsesUnsignedOrder() {
        assertCombines(i64(Long.MAX_VALUE), i64(Long.MIN_VALUE), i64(Long.MAX_VALUE), ElementType.U64, ReduceOp.MIN);
    }

    @Test
    void maxOfU64UsesUnsignedOrder() {
        assertCombines(i64(-1L), i64(-1L), i64(1), ElementType.U64, ReduceOp.MAX);
    }

    @Test
    void landGivesOneOrZeroInTheElementWidth() {
        assertCombines(i32(1, 0, 0, 0), i32(2, 0, 7, 0), i32(0x100, 5, 0, 0), ElementType.I32, ReduceOp.LAND);
    }

    @Test
    void lorGivesOneOrZeroInTheElementWidth() {
        assertCombines(i64(1, 1, 0), i64(-1L, 0, 0), i64(0x100, 3, 0), ElementType.U64, ReduceOp.LOR);
    }

    @Test
    void lxorGivesOneWhenExactlyOneIsNonzero() {
        assertCombines(i32(0, 1, 1, 0), i32(5, 5, 0, 0), i32(7, 0, 9, 0), ElementType.U32, ReduceOp.LXOR);
    }

    @Test
    void logicalOperationsSeeNonzeroBitsInTheHighestByte() {
        // A value nonzero only in its last (most significant) byte is true; 0 and 1 are whole-width values.
        assertCombines(i64(1), i64(1L << 56), i64(1L << 63), ElementType.I64, ReduceOp.LAND);
    }

    @Test
    void bitwiseOperationsOnBytesWorkOnEveryByteIncludingTheTail() {
        byte[] a = new byte[19];
        byte[] b = new byte[19];
        for (int i = 0; i < a.length; i++) {
            a[i] = (byte) (0x5a + 17 * i);
            b[i] = (byte) (0xc3 - 29 * i);
        }
        byte[] and = new byte[19];
        byte[] or = new byte[19];
        byte[] xor = new byte[19];
        for (int i = 0; i < a.length; i++) {
            and[i] = (byte) (a[i] & b[i]);
            or[i] = (byte) (a[i] | b[i]);
            xor[i] = (byte) (a[i] ^ b[i]);
        }
        assertArrayEquals(and, Combine.combine(a, b, ElementType.BYTES, ReduceOp.BAND));
        assertArrayEquals(or, Combine.combine(a, b, ElementType.BYTES, ReduceOp.BOR));
        assertArrayEquals(xor, Combine.combine(a, b, ElementType.BYTES, ReduceOp.BXOR));
    }

    @Test
    void bitwiseOperationsOnIntegersAreBitwise() {
        assertCombines(i32(0x0f0f_0000, 0x8000_0001, 0x0000_0000), i32(0x0f0f_f0f0, 0x8000_0001, 0x1234_5678),
                i32(0xffff_0f0f, 0xffff_ffff, 0xedcb_a987), ElementType.U32, ReduceOp.BAND);
        assertCombines(i64(0xffff_ffff_0000_0000L), i64(0xff00_ff00_0000_0000L), i64(0x00ff_00ff_0000_0000L),
                ElementType.I64, ReduceOp.BXOR);
    }

    // ---- floats

    @Test
    void sumOfF32RoundsToNearestEvenInBinary32() {
        float half = 0x1p-24f; // half an ulp of 1.0f
        assertCombines(f32(1.0f, 1.0f + 0x1p-22f), f32(1.0f, 1.0f + 0x1p-23f), f32(half, half), ElementType.F32,
                ReduceOp.SUM);
    }

    @Test
    void sumOfF64RoundsToNearestEven() {
        double half = 0x1p-53;
        assertCombines(f64(1.0, 1.0 + 0x1p-51), f64(1.0, 1.0 + 0x1p-52), f64(half, half), ElementType.F64,
                ReduceOp.SUM);
    }

    @Test
    void prodOfF32OverflowsToInfinity() {
        assertCombines(f32(Float.POSITIVE_INFINITY), f32(Float.MAX_VALUE), f32(2.0f), ElementType.F32, ReduceOp.PROD);
    }

    @Test
    void minOfF32WithNaNGivesCanonicalNaN() {
        assertCombines(bits32(F32_NAN, F32_NAN, F32_NAN), bits32(F32_SNAN, 0x3f80_0000, F32_NEG_NAN),
                bits32(0x3f80_0000, F32_SNAN, 0xff80_0000), ElementType.F32, ReduceOp.MIN);
    }

    @Test
    void maxOfF64WithNaNGivesCanonicalNaN() {
        assertCombines(bits64(F64_NAN, F64_NAN), bits64(F64_SNAN, 0x7ff0_0000_0000_0000L),
                bits64(0x7ff0_0000_0000_0000L, 0xfff8_0000_0000_0001L), ElementType.F64, ReduceOp.MAX);
    }

    @Test
    void minOfF32TreatsMinusZeroBelowPlusZero() {
        assertCombines(f32(-0.0f, -0.0f), f32(-0.0f, 0.0f), f32(0.0f, -0.0f), ElementType.F32, ReduceOp.MIN);
    }

    @Test
    void maxOfF32TreatsMinusZeroBelowPlusZero() {
        assertCombines(f32(0.0f, 0.0f), f32(-0.0f, 0.0f), f32(0.0f, -0.0f), ElementType.F32, ReduceOp.MAX);
    }

    @Test
    void minOfF64TreatsMinusZeroBelowPlusZero() {
        assertCombines(f64(-0.0, -0.0), f64(-0.0, 0.0), f64(0.0, -0.0), ElementType.F64, ReduceOp.MIN);
    }

    @Test
    void maxOfF64TreatsMinusZeroBelowPlusZero() {
        assertCombines(f64(0.0, 0.0), f64(-0.0, 0.0), f64(0.0, -0.0), ElementType.F64, ReduceOp.MAX);
    }

    @Test
    void sumOfNaNInputsGivesCanonicalNaN() {
        assertCombines(bits32(F32_NAN, F32_NAN), bits32(F32_SNAN, 0x3f80_0000), bits32(0x3f80_0000, F32_NEG_NAN),
                ElementType.F32, ReduceOp.SUM);
        assertCombines(bits64(F64_NAN), bits64(F64_SNAN), bits64(F64_SNAN), ElementType.F64, ReduceOp.PROD);
    }

    @Test
    void infinityMinusInfinityGivesCanonicalNaN() {
        // x86 produces the negative "default NaN" 0xffc00000 here; the rule wants the positive canonical one.
        assertCombines(bits32(F32_NAN), f32(Float.POSITIVE_INFINITY), f32(Float.NEGATIVE_INFINITY), ElementType.F32,
                ReduceOp.SUM);
        assertCombines(bits64(F64_NAN), f64(Double.NEGATIVE_INFINITY), f64(Double.POSITIVE_INFINITY),
                ElementType.F64, ReduceOp.SUM);
    }

    @Test
    void zeroTimesInfinityGivesCanonicalNaN() {
        assertCombines(bits32(F32_NAN), f32(-0.0f), f32(Float.POSITIVE_INFINITY), ElementType.F32, ReduceOp.PROD);
        assertCombines(bits64(F64_NAN), f64(Double.NEGATIVE_INFINITY), f64(0.0), ElementType.F64, ReduceOp.PROD);
    }

    @Test
    void subnormalsAreKept() {
        assertCombines(bits32(2), bits32(1), bits32(1), ElementType.F32, ReduceOp.SUM);
        assertCombines(f64(0x1p-1023), f64(0x1p-1022), f64(0.5), ElementType.F64, ReduceOp.PROD);
        assertCombines(f64(Double.MIN_VALUE), f64(Double.MIN_VALUE), f64(0x1p-1022), ElementType.F64, ReduceOp.MIN);
    }

    /**
     * Float sum is not associative, so the result depends on the grouping: SPERLI folds left in ascending rank
     * order, acc = c0, then acc op= c1, acc op= c2. A tree or arrival-order fold would give another answer.
     */
    @Test
    void foldOrderMattersForFloatSum() {
        byte[] c0 = f64(1.0);
        byte[] c1 = f64(0x1p53);
        byte[] c2 = f64(-0x1p53);

        byte[] leftFold = c0.clone();
        Combine.into(leftFold, c1, ElementType.F64, ReduceOp.SUM); // 1 + 2^53 is a tie: rounds to even, 2^53
        Combine.into(leftFold, c2, ElementType.F64, ReduceOp.SUM);
        byte[] rightGrouping = Combine.combine(c0, Combine.combine(c1, c2, ElementType.F64, ReduceOp.SUM),
                ElementType.F64, ReduceOp.SUM);

        assertArrayEquals(f64(0.0), leftFold);
        assertArrayEquals(f64(1.0), rightGrouping);
        assertNotEquals(Arrays.toString(leftFold), Arrays.toString(rightGrouping));
    }

    // ---- typed forms (exhaustive equality with the byte form is in CombineProperties)

    @Test
    void typedFloatMinStoresCanonicalNaNBits() {
        float[] acc = {Float.intBitsToFloat(F32_NEG_NAN), -0.0f};
        Combine.into(acc, new float[] {1.0f, 0.0f}, ReduceOp.MIN);
        assertEquals(F32_NAN, Float.floatToRawIntBits(acc[0]));
        assertEquals(Float.floatToRawIntBits(-0.0f), Float.floatToRawIntBits(acc[1]));
    }

    @Test
    void typedDoubleSumStoresCanonicalNaNBits() {
        double[] acc = {Double.POSITIVE_INFINITY};
        Combine.into(acc, new double[] {Double.NEGATIVE_INFINITY}, ReduceOp.SUM);
        assertEquals(F64_NAN, Double.doubleToRawLongBits(acc[0]));
    }

    @Test
    void typedUnsignedMinUsesUnsignedOrder() {
        int[] acc = {-1};
        Combine.into(acc, new int[] {1}, ReduceOp.MIN, true);
        assertEquals(1, acc[0]);
        long[] acc64 = {-1L};
        Combine.into(acc64, new long[] {1L}, ReduceOp.MIN, false);
        assertEquals(-1L, acc64[0]);
    }

    // ---- helpers shared with CombineProperties

    /** Asserts a op b == expected on heap and direct buffers, and that the inputs stay unchanged. */
    static void assertCombines(byte[] expected, byte[] a, byte[] b, ElementType type, ReduceOp op) {
        byte[] a0 = a.clone();
        byte[] b0 = b.clone();
        assertArrayEquals(expected, Combine.combine(a, b, type, op), type + " " + op + " (heap)");
        ByteBuffer acc = direct(a);
        Combine.into(acc, direct(b), type, op);
        byte[] out = new byte[a.length];
        acc.get(0, out);
        assertArrayEquals(expected, out, type + " " + op + " (direct)");
        assertArrayEquals(a0, a);
        assertArrayEquals(b0, b);
    }

    static void assertRefused(String reason, Executable call) {
        SperliException e = assertThrows(SperliException.class, call);
        assertEquals(ErrorCode.H1618, e.code());
        assertEquals(reason, e.reason());
        assertTrue(e.getMessage().startsWith("H1618 "), e.getMessage());
    }

    static ByteBuffer direct(byte[] bytes) {
        return ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
    }

    static byte[] bytes(int... values) {
        byte[] out = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = (byte) values[i];
        }
        return out;
    }

    static byte[] i32(int... values) {
        return bits32(values);
    }

    static byte[] bits32(int... values) {
        ByteBuffer b = ByteBuffer.allocate(4 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        for (int v : values) {
            b.putInt(v);
        }
        return b.array();
    }

    static byte[] i64(long... values) {
        return bits64(values);
    }

    static byte[] bits64(long... values) {
        ByteBuffer b = ByteBuffer.allocate(8 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        for (long v : values) {
            b.putLong(v);
        }
        return b.array();
    }

    static byte[] f32(float... values) {
        int[] bits = new int[values.length];
        for (int i = 0; i < values.length; i++) {
            bits[i] = Float.floatToRawIntBits(values[i]);
        }
        return bits32(bits);
    }

    static byte[] f64(double... values) {
        long[] bits = new long[values.length];
        for (int i = 0; i < values.length; i++) {
            bits[i] = Double.doubleToRawLongBits(values[i]);
        }
        return bits64(bits);
    }
}
