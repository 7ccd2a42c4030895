package org.sperli.collective;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import org.sperli.ElementType;
import org.sperli.ReduceOp;

/**
 * Properties of {@link Combine} over random contributions of every allowed type and operation, with the float
 * specials (zeros of both signs, infinities, NaNs with payloads and sign, subnormals) drawn often.
 */
class CombineProperties {
    /** One allowed call: {@code a op b}, both {@code a.length} bytes. */
    record Case(ElementType type, ReduceOp op, byte[] a, byte[] b) {
        @Override
        public String toString() {
            return type + " " + op + " a=" + Arrays.toString(a) + " b=" + Arrays.toString(b);
        }
    }

    private static final int[] F32_SPECIALS = {
        0x0000_0000, 0x8000_0000, 0x7f80_0000, 0xff80_0000, 0x7fc0_0000, 0xffc0_0000, 0x7fa0_0001, 0x7fff_ffff,
        0x0000_0001, 0x807f_ffff, 0x0080_0000, 0x7f7f_ffff, 0x3f80_0000, 0xbf80_0000, 0x3380_0000,
    };
    private static final long[] F64_SPECIALS = {
        0L, 0x8000_0000_0000_0000L, 0x7ff0_0000_0000_0000L, 0xfff0_0000_0000_0000L, 0x7ff8_0000_0000_0000L,
        0xfff8_0000_0000_0000L, 0x7ff4_0000_0000_0001L, 0x7fff_ffff_ffff_ffffL, 1L, 0x800f_ffff_ffff_ffffL,
        0x0010_0000_0000_0000L, 0x7fef_ffff_ffff_ffffL, 0x3ff0_0000_0000_0000L, 0xbff0_0000_0000_0000L,
        0x3ca0_0000_0000_0000L,
    };

    @Property(tries = 2000)
    void typedFormsAreBitIdenticalToByteForm(@ForAll("allowedCases") Case c) {
        byte[] expected = Combine.combine(c.a(), c.b(), c.type(), c.op());
        byte[] typed = switch (c.type()) {
            case BYTES -> expected; // no typed form: bytes are already the byte form
            case I32, U32 -> {
                int[] acc = ints(c.a());
                Combine.into(acc, ints(c.b()), c.op(), c.type() == ElementType.U32);
                yield CombineTest.bits32(acc);
            }
            case I64, U64 -> {
                long[] acc = longs(c.a());
                Combine.into(acc, longs(c.b()), c.op(), c.type() == ElementType.U64);
                yield CombineTest.bits64(acc);
            }
            case F32 -> {
                float[] acc = floats(c.a());
                Combine.into(acc, floats(c.b()), c.op());
                yield CombineTest.f32(acc);
            }
            case F64 -> {
                double[] acc = doubles(c.a());
                Combine.into(acc, doubles(c.b()), c.op());
                yield CombineTest.f64(acc);
            }
        };
        assertArrayEquals(expected, typed, c.toString());
    }

    @Property(tries = 1000)
    void heapAndDirectBuffersAgreeAtAnyOffset(@ForAll("allowedCases") Case c,
            @ForAll @IntRange(max = 9) int accOffset, @ForAll @IntRange(max = 9) int bOffset,
            @ForAll boolean accDirect, @ForAll boolean bDirect) {
        byte[] expected = Combine.combine(c.a(), c.b(), c.type(), c.op());
        int n = c.a().length;
        ByteBuffer acc = embedded(c.a(), accOffset, accDirect);
        ByteBuffer b = embedded(c.b(), bOffset, bDirect);

        Combine.into(acc, b, c.type(), c.op());

        assertEquals(accOffset, acc.position());
        assertEquals(accOffset + n, acc.limit());
        assertEquals(bOffset, b.position());
        byte[] out = new byte[n];
        acc.get(accOffset, out);
        assertArrayEquals(expected, out, c.toString());
        ByteBuffer whole = acc.duplicate().clear();
        for (int i = 0; i < whole.capacity(); i++) {
            if (i < accOffset || i >= accOffset + n) {
                assertEquals((byte) 0xa5, whole.get(i), "byte " + i + " outside position..limit");
            }
        }
    }

    @Property(tries = 2000)
    void integerResultsMatchABigIntegerModel(@ForAll("integerCases") Case c) {
        int w = c.type().width();
        byte[] actual = Combine.combine(c.a(), c.b(), c.type(), c.op());
        for (int i = 0; i < c.a().length; i += w) {
            BigInteger x = value(c.a(), i, c.type());
            BigInteger y = value(c.b(), i, c.type());
            BigInteger r = switch (c.op()) {
                case SUM -> x.add(y);
                case PROD -> x.multiply(y);
                case MIN -> x.min(y); // values decoded signed or unsigned by type, so this is the right order
                case MAX -> x.max(y);
                case LAND -> truth(x.signum() != 0 && y.signum() != 0);
                case LOR -> truth(x.signum() != 0 || y.signum() != 0);
                case LXOR -> truth((x.signum() != 0) != (y.signum() != 0));
                case BAND -> x.and(y);
                case BOR -> x.or(y);
                case BXOR -> x.xor(y);
            };
            assertArrayEquals(encode(r, w), Arrays.copyOfRange(actual, i, i + w), c + " element " + i / w);
        }
    }

    @Property(tries = 3000)
    void f32ResultsMatchAModelInDoubleAndTheNaNAndZeroRules(@ForAll("f32Cases") Case c) {
        ByteBuffer a = ByteBuffer.wrap(c.a()).order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer b = ByteBuffer.wrap(c.b()).order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer r = ByteBuffer.wrap(Combine.combine(c.a(), c.b(), c.type(), c.op())).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < c.a().length; i += 4) {
            float x = Float.intBitsToFloat(a.getInt(i));
            float y = Float.intBitsToFloat(b.getInt(i));
            // Sum and product of two binary32 values rounded once from binary64 equal the binary32 result
            // (53 >= 2 * 24 + 2), which makes double arithmetic an independent oracle here.
            float expected = switch (c.op()) {
                case SUM -> (float) ((double) x + (double) y);
                case PROD -> (float) ((double) x * (double) y);
                case MIN -> Float.isNaN(x) || Float.isNaN(y) ? Float.NaN
                        : x == 0 && y == 0 ? (isNegative(x) || isNegative(y) ? -0.0f : 0.0f) : x < y ? x : y;
                case MAX -> Float.isNaN(x) || Float.isNaN(y) ? Float.NaN
                        : x == 0 && y == 0 ? (isNegative(x) && isNegative(y) ? -0.0f : 0.0f) : x > y ? x : y;
                default -> throw new AssertionError(c.op());
            };
            int bits = Float.isNaN(expected) ? 0x7fc0_0000 : Float.floatToRawIntBits(expected);
            assertEquals(bits, r.getInt(i), c + " element " + i / 4);
        }
    }

    @Property(tries = 3000)
    void f64ResultsFollowTheNaNAndZeroRules(@ForAll("f64Cases") Case c) {
        ByteBuffer a = ByteBuffer.wrap(c.a()).order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer b = ByteBuffer.wrap(c.b()).order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer r = ByteBuffer.wrap(Combine.combine(c.a(), c.b(), c.type(), c.op())).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < c.a().length; i += 8) {
            double x = Double.longBitsToDouble(a.getLong(i));
            double y = Double.longBitsToDouble(b.getLong(i));
            double expected = switch (c.op()) {
                case SUM -> x + y;
                case PROD -> x * y;
                case MIN -> Double.isNaN(x) || Double.isNaN(y) ? Double.NaN
                        : x == 0 && y == 0 ? (isNegative(x) || isNegative(y) ? -0.0 : 0.0) : x < y ? x : y;
                case MAX -> Double.isNaN(x) || Double.isNaN(y) ? Double.NaN
                        : x == 0 && y == 0 ? (isNegative(x) && isNegative(y) ? -0.0 : 0.0) : x > y ? x : y;
                default -> throw new AssertionError(c.op());
            };
            long bits = Double.isNaN(expected) ? 0x7ff8_0000_0000_0000L : Double.doubleToRawLongBits(expected);
            assertEquals(bits, r.getLong(i), c + " element " + i / 8);
        }
    }

    // ---- generators

    @Provide
    Arbitrary<Case> allowedCases() {
        return Arbitraries.of(ElementType.class).flatMap(CombineProperties::casesOf);
    }

    @Provide
    Arbitrary<Case> integerCases() {
        return Arbitraries.of(ElementType.BYTES, ElementType.I32, ElementType.U32, ElementType.I64, ElementType.U64)
                .flatMap(CombineProperties::casesOf);
    }

    @Provide
    Arbitrary<Case> f32Cases() {
        return casesOf(ElementType.F32);
    }

    @Provide
    Arbitrary<Case> f64Cases() {
        return casesOf(ElementType.F64);
    }

    private static Arbitrary<Case> casesOf(ElementType type) {
        List<ReduceOp> ops = Arrays.stream(ReduceOp.values()).filter(op -> op.allowedFor(type)).toList();
        // Lengths up to 21 elements: covers the 8-byte bitwise loop and every tail length of it.
        return Combinators.combine(Arbitraries.of(ops), Arbitraries.integers().between(0, 21))
                .flatAs((op, n) -> Combinators.combine(elements(type, n), elements(type, n))
                        .as((a, b) -> new Case(type, op, a, b)));
    }

    private static Arbitrary<byte[]> elements(ElementType type, int n) {
        return switch (type) {
            case BYTES -> Arbitraries.bytes().array(byte[].class).ofSize(n);
            case I32, U32 -> Arbitraries.integers().array(int[].class).ofSize(n).map(CombineTest::bits32);
            case I64, U64 -> Arbitraries.longs().array(long[].class).ofSize(n).map(CombineTest::bits64);
            case F32 -> Arbitraries.frequencyOf(
                            Tuple.of(2, Arbitraries.integers()),
                            Tuple.of(2, Arbitraries.of(Arrays.stream(F32_SPECIALS).boxed().toList())),
                            Tuple.of(1, Arbitraries.floats().map(Float::floatToRawIntBits)))
                    .array(int[].class).ofSize(n).map(CombineTest::bits32);
            case F64 -> Arbitraries.frequencyOf(
                            Tuple.of(2, Arbitraries.longs()),
                            Tuple.of(2, Arbitraries.of(Arrays.stream(F64_SPECIALS).boxed().toList())),
                            Tuple.of(1, Arbitraries.doubles().map(Double::doubleToRawLongBits)))
                    .array(long[].class).ofSize(n).map(CombineTest::bits64);
        };
    }

    // ---- helpers

    private static ByteBuffer embedded(byte[] data, int offset, boolean direct) {
        int capacity = offset + data.length + 3;
        ByteBuffer buffer = direct ? ByteBuffer.allocateDirect(capacity) : ByteBuffer.allocate(capacity);
        for (int i = 0; i < capacity; i++) {
            buffer.put(i, (byte) 0xa5);
        }
        buffer.put(offset, data);
        return buffer.position(offset).limit(offset + data.length);
    }

    private static BigInteger value(byte[] data, int offset, ElementType type) {
        byte[] bigEndian = new byte[type.width()];
        for (int k = 0; k < bigEndian.length; k++) {
            bigEndian[k] = data[offset + bigEndian.length - 1 - k];
        }
        return type.isSigned() ? new BigInteger(bigEndian) : new BigInteger(1, bigEndian);
    }

    private static byte[] encode(BigInteger v, int width) {
        byte[] bigEndian = v.mod(BigInteger.ONE.shiftLeft(8 * width)).toByteArray();
        byte[] out = new byte[width];
        for (int k = 0; k < width && k < bigEndian.length; k++) {
            out[k] = bigEndian[bigEndian.length - 1 - k];
        }
        return out;
    }

    private static BigInteger truth(boolean b) {
        return b ? BigInteger.ONE : BigInteger.ZERO;
    }

    private static boolean isNegative(float x) {
        return Float.floatToRawIntBits(x) < 0;
    }

    private static boolean isNegative(double x) {
        return Double.doubleToRawLongBits(x) < 0;
    }

    private static int[] ints(byte[] bytes) {
        int[] out = new int[bytes.length / 4];
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(out);
        return out;
    }

    private static long[] longs(byte[] bytes) {
        long[] out = new long[bytes.length / 8];
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(out);
        return out;
    }

    private static float[] floats(byte[] bytes) {
        float[] out = new float[bytes.length / 4];
        int[] bits = ints(bytes);
        for (int i = 0; i < out.length; i++) {
            out[i] = Float.intBitsToFloat(bits[i]);
        }
        return out;
    }

    private static double[] doubles(byte[] bytes) {
        double[] out = new double[bytes.length / 8];
        long[] bits = longs(bytes);
        for (int i = 0; i < out.length; i++) {
            out[i] = Double.longBitsToDouble(bits[i]);
        }
        return out;
    }
}
