package org.sperli.array;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.sperli.ArrayType;
import org.sperli.ElementType;
import org.sperli.ErrorCode;
import org.sperli.ReduceOp;
import org.sperli.SperliException;
import org.sperli.collective.Combine;

/** The flat array types of {@link ArrayTypes}: elements only, little endian, and every refusal H1618. */
class FlatArrayTypesTest {
    /** One flat type with a sample value that has extremes, signs and (for floats) NaN payloads and -0.0. */
    record Sample<T>(ArrayType<T> type, T value, T empty, ElementType elementType, int length) {
        @Override
        public String toString() {
            return type.toString();
        }
    }

    static Stream<Sample<?>> samples() {
        return Stream.of(
                new Sample<>(ArrayTypes.BYTES, new byte[] {0, 1, -1, 127, -128}, new byte[0], ElementType.BYTES, 5),
                new Sample<>(ArrayTypes.I32, new int[] {0, 1, -1, Integer.MAX_VALUE, Integer.MIN_VALUE}, new int[0],
                        ElementType.I32, 5),
                new Sample<>(ArrayTypes.U32, new int[] {0, 1, -1, 0x8000_0000}, new int[0], ElementType.U32, 4),
                new Sample<>(ArrayTypes.I64, new long[] {0, -1, Long.MAX_VALUE, Long.MIN_VALUE}, new long[0],
                        ElementType.I64, 4),
                new Sample<>(ArrayTypes.U64, new long[] {0, -1, 1L << 63}, new long[0], ElementType.U64, 3),
                new Sample<>(ArrayTypes.F32, new float[] {0f, -0f, 1.5f, Float.intBitsToFloat(0x7fc0_1234),
                    Float.MIN_VALUE, Float.NEGATIVE_INFINITY}, new float[0], ElementType.F32, 6),
                new Sample<>(ArrayTypes.F64, new double[] {0d, -0d, -2.25,
                    Double.longBitsToDouble(0xfff8_0000_0000_0abcL), Double.MIN_VALUE, Double.POSITIVE_INFINITY},
                        new double[0], ElementType.F64, 6));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    <T> void roundTripKeepsEveryBitAndConsumesAllBytes(Sample<T> s) {
        byte[] encoded = ArrayTypes.toBytes(s.type(), s.value());
        assertEquals(s.length() * s.elementType().width(), encoded.length, "elements only, no header");
        ByteBuffer in = ByteBuffer.wrap(encoded);
        T back = s.type().decode(in);
        assertFalse(in.hasRemaining());
        assertNotSame(s.value(), back);
        assertArrayEquals(encoded, ArrayTypes.toBytes(s.type(), back), "raw bits, NaN payloads included");
        assertEquals(0, ArrayTypes.toBytes(s.type(), s.type().decode(ByteBuffer.allocate(0))).length);
        assertEquals(0, s.type().encodedLength(s.empty()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    <T> void reportsItsElementTypeAndTheLengthAsShapeAndIsFlat(Sample<T> s) {
        assertEquals(s.elementType(), s.type().elementType(s.value()));
        assertArrayEquals(new long[] {s.length()}, s.type().shape(s.value()));
        assertArrayEquals(new long[] {0}, s.type().shape(s.empty()));
        assertTrue(s.type().isFlat());
    }

    @Test
    void encodesElementsLeastSignificantByteFirstWithoutAHeader() {
        assertArrayEquals(new byte[] {1, 0, 0, 0, (byte) 0xfe, (byte) 0xff, (byte) 0xff, (byte) 0xff},
                ArrayTypes.toBytes(ArrayTypes.I32, new int[] {1, -2}));
        assertArrayEquals(new byte[] {0, 0, 0, (byte) 0x80},
                ArrayTypes.toBytes(ArrayTypes.U32, new int[] {0x8000_0000}));
        assertArrayEquals(new byte[] {8, 7, 6, 5, 4, 3, 2, 1},
                ArrayTypes.toBytes(ArrayTypes.U64, new long[] {0x0102_0304_0506_0708L}));
        // f64 1.0 is 0x3ff0000000000000; f32 -2.0 is 0xc0000000.
        assertArrayEquals(new byte[] {0, 0, 0, 0, 0, 0, (byte) 0xf0, 0x3f},
                ArrayTypes.toBytes(ArrayTypes.F64, new double[] {1.0}));
        assertArrayEquals(new byte[] {0, 0, 0, (byte) 0xc0}, ArrayTypes.toBytes(ArrayTypes.F32, new float[] {-2f}));
        assertArrayEquals(new byte[] {9, -9}, ArrayTypes.toBytes(ArrayTypes.BYTES, new byte[] {9, -9}));
    }

    @Test
    void encodeWritesLittleEndianIntoABigEndianBufferAtItsPositionAndLeavesItsOrder() {
        ByteBuffer buffer = ByteBuffer.allocate(12).order(ByteOrder.BIG_ENDIAN);
        buffer.position(2);
        assertEquals(8, ArrayTypes.I32.encode(new int[] {1, 2}, buffer));
        assertEquals(10, buffer.position());
        assertEquals(ByteOrder.BIG_ENDIAN, buffer.order());
        assertArrayEquals(new byte[] {0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 0, 0}, buffer.array());
    }

    @Test
    void decodeReadsFromThePositionOfReadOnlyAndDirectBuffers() {
        byte[] encoded = ArrayTypes.toBytes(ArrayTypes.I64, new long[] {-5, 7});
        ByteBuffer framed = ByteBuffer.allocate(20);
        framed.put(new byte[] {1, 2}).put(encoded).flip().position(2);
        assertArrayEquals(new long[] {-5, 7}, ArrayTypes.I64.decode(framed.asReadOnlyBuffer()));
        ByteBuffer direct = ByteBuffer.allocateDirect(encoded.length).put(encoded).flip();
        assertArrayEquals(new long[] {-5, 7}, ArrayTypes.I64.decode(direct));
        assertEquals(direct.limit(), direct.position());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    <T> void refusesALengthThatIsNotWholeElementsWithH1618AndConsumesNothing(Sample<T> s) {
        int width = s.elementType().width();
        for (int length : new int[] {1, width - 1, 3 * width + 1}) {
            if (length % width == 0) {
                continue;
            }
            ByteBuffer cut = ByteBuffer.allocate(length);
            SperliException e = assertThrows(SperliException.class, () -> s.type().decode(cut));
            assertEquals(ErrorCode.H1618, e.code());
            assertTrue(e.reason().contains("length=" + length + " is not a whole number of " + width
                    + "-byte elements"), e.getMessage());
            assertEquals(0, cut.position(), "nothing consumed");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    <T> void encodeRefusesABufferWithoutRoomWithH1618AndWritesNothing(Sample<T> s) {
        int needed = s.type().encodedLength(s.value());
        ByteBuffer small = ByteBuffer.allocate(needed - 1);
        SperliException e = assertThrows(SperliException.class, () -> s.type().encode(s.value(), small));
        assertEquals(ErrorCode.H1618, e.code());
        assertEquals("H1618 invalid argument: " + s.type() + " needs " + needed + " bytes, buffer has "
                + (needed - 1) + " remaining", e.getMessage());
        assertEquals(0, small.position());
        assertArrayEquals(new byte[needed - 1], small.array());
    }

    @Test
    void reduceHookIsCombineWithUnsignedOrderForTheUnsignedViews() {
        assertArrayEquals(new int[] {-1, 2}, ArrayTypes.U32.reduce(new int[] {-1, 2}, new int[] {1, 1}, ReduceOp.MAX),
                "0xffffffff is the largest u32");
        assertArrayEquals(new int[] {1, 2}, ArrayTypes.I32.reduce(new int[] {-1, 2}, new int[] {1, 1}, ReduceOp.MAX));
        assertArrayEquals(new long[] {1}, ArrayTypes.U64.reduce(new long[] {-1}, new long[] {1}, ReduceOp.MIN));
        double[] a = {0.1, 1e308};
        double[] b = {0.2, 1e308};
        byte[] expected = Combine.combine(ArrayTypes.toBytes(ArrayTypes.F64, a), ArrayTypes.toBytes(ArrayTypes.F64, b),
                ElementType.F64, ReduceOp.SUM);
        assertArrayEquals(expected, ArrayTypes.toBytes(ArrayTypes.F64, ArrayTypes.F64.reduce(a, b, ReduceOp.SUM)));
        assertArrayEquals(new double[] {0.1, 1e308}, a, "operands are not changed");
        assertArrayEquals(new byte[] {6}, ArrayTypes.BYTES.reduce(new byte[] {5}, new byte[] {3}, ReduceOp.BXOR));
    }

    @Test
    void reduceRefusesArraysOfDifferentLengthAndPairsTheTableDoesNotAllowWithH1618() {
        SperliException shapes = assertThrows(SperliException.class,
                () -> ArrayTypes.F64.reduce(new double[2], new double[3], ReduceOp.SUM));
        assertEquals("H1618 invalid argument: shapes differ: [2] and [3]", shapes.getMessage());
        for (var refused : List.<Runnable>of(
                () -> ArrayTypes.F64.reduce(new double[1], new double[1], ReduceOp.BAND),
                () -> ArrayTypes.F32.reduce(new float[1], new float[1], ReduceOp.LXOR),
                () -> ArrayTypes.BYTES.reduce(new byte[1], new byte[1], ReduceOp.SUM))) {
            assertEquals(ErrorCode.H1618, assertThrows(SperliException.class, refused::run).code());
        }
    }

    @Test
    void aTypeWithAHeaderReducesTheElementsAfterItWithReduceElements() {
        // A test type: u32 element count, then the i32 elements; its reduce is ArrayTypes.reduceElements.
        ArrayType<int[]> counted = new CountedInts();
        int[] sum = counted.reduce(new int[] {1, 2, 3}, new int[] {10, 20, 30}, ReduceOp.SUM);
        assertArrayEquals(new int[] {11, 22, 33}, sum);
        SperliException e = assertThrows(SperliException.class,
                () -> counted.reduce(new int[] {1, 2}, new int[] {1, 2, 3}, ReduceOp.SUM));
        assertEquals("H1618 invalid argument: shapes differ: [2] and [3]", e.getMessage());
    }

    /** A minimal shaped type for {@link ArrayTypes#reduceElements}: [u32 count][count i32]. */
    private static final class CountedInts implements ArrayType<int[]> {
        @Override
        public int encodedLength(int[] value) {
            return 4 + 4 * value.length;
        }

        @Override
        public int encode(int[] value, ByteBuffer buffer) {
            ByteBuffer out = buffer.order(ByteOrder.LITTLE_ENDIAN);
            out.putInt(value.length);
            for (int v : value) {
                out.putInt(v);
            }
            return encodedLength(value);
        }

        @Override
        public int[] decode(ByteBuffer bytes) {
            ByteBuffer in = bytes.order(ByteOrder.LITTLE_ENDIAN);
            int[] out = new int[in.getInt()];
            for (int i = 0; i < out.length; i++) {
                out[i] = in.getInt();
            }
            return out;
        }

        @Override
        public ElementType elementType(int[] value) {
            return ElementType.I32;
        }

        @Override
        public long[] shape(int[] value) {
            return new long[] {value.length};
        }

        @Override
        public int[] reduce(int[] a, int[] b, ReduceOp op) {
            return ArrayTypes.reduceElements(this, a, b, op);
        }
    }
}
