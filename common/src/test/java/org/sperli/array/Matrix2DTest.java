package org.sperli.array;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.sperli.ArrayType;
import org.sperli.ElementType;
import org.sperli.ErrorCode;
import org.sperli.ReduceOp;
import org.sperli.SperliException;

/** {@link Matrix2D} and its array type: a value with a shape, carried in its encoding. */
class Matrix2DTest {
    private static final ArrayType<Matrix2D> TYPE = ArrayTypes.MATRIX_2D;
    private static final Matrix2D M23 = Matrix2D.of(2, 3, 1, 2, 3, 4, 5, 6);

    @Test
    void encodingIsRowsColsThenTheElementsRowMajorLittleEndian() {
        byte[] expected = ByteBuffer.allocate(8 + 16).order(ByteOrder.LITTLE_ENDIAN)
                .putInt(2)           // rows, u32
                .putInt(1)           // cols, u32
                .putDouble(1.0)      // (0, 0), f64
                .putDouble(-2.0)     // (1, 0), f64
                .array();
        assertArrayEquals(expected, ArrayTypes.toBytes(TYPE, Matrix2D.of(2, 1, 1.0, -2.0)));
        assertEquals(Matrix2DType.HEADER_LENGTH + 6 * 8, TYPE.encodedLength(M23));
        assertEquals(8, Matrix2DType.HEADER_LENGTH);
    }

    @Test
    void roundTripGivesAnEqualMatrixForEveryShapeIncludingEmptyOnes() {
        for (Matrix2D m : new Matrix2D[] {M23, Matrix2D.of(1, 1, Double.NaN), Matrix2D.of(0, 0),
            Matrix2D.of(0, 5), Matrix2D.of(3, 0)}) {
            ByteBuffer in = ByteBuffer.wrap(ArrayTypes.toBytes(TYPE, m));
            Matrix2D back = TYPE.decode(in);
            assertEquals(m, back);
            assertFalse(in.hasRemaining());
        }
    }

    @Test
    void reportsF64ItsTwoExtentsAndIsNotFlat() {
        assertEquals(ElementType.F64, TYPE.elementType(M23));
        assertArrayEquals(new long[] {2, 3}, TYPE.shape(M23));
        assertFalse(TYPE.isFlat());
        assertEquals(6.0, M23.get(1, 2));
        assertThrows(IndexOutOfBoundsException.class, () -> M23.get(2, 0));
    }

    @Test
    void refusesAHeaderCutAtEveryLengthWithH1618AndConsumesNothing() {
        byte[] whole = ArrayTypes.toBytes(TYPE, M23);
        for (int length = 0; length < Matrix2DType.HEADER_LENGTH; length++) {
            ByteBuffer cut = ByteBuffer.wrap(whole, 0, length);
            SperliException e = assertThrows(SperliException.class, () -> TYPE.decode(cut));
            assertEquals("H1618 invalid argument: matrix cut: " + length + " bytes, header needs 8", e.getMessage());
            assertEquals(0, cut.position());
        }
    }

    @Test
    void refusesElementsCutAtEveryLengthWithH1618() {
        byte[] whole = ArrayTypes.toBytes(TYPE, M23);
        for (int length = Matrix2DType.HEADER_LENGTH; length < whole.length; length++) {
            ByteBuffer cut = ByteBuffer.wrap(Arrays.copyOf(whole, length));
            SperliException e = assertThrows(SperliException.class, () -> TYPE.decode(cut));
            assertEquals(ErrorCode.H1618, e.code());
            assertTrue(e.reason().startsWith("matrix "), e.getMessage());
            assertTrue(e.reason().contains("2x3 needs 48 element bytes, " + (length - 8) + " follow the header"),
                    e.getMessage());
            assertEquals(0, cut.position());
        }
    }

    @Test
    void refusesTrailingBytesAfterTheElements() {
        ByteBuffer longer = ByteBuffer.wrap(Arrays.copyOf(ArrayTypes.toBytes(TYPE, M23), 8 + 48 + 8));
        SperliException e = assertThrows(SperliException.class, () -> TYPE.decode(longer));
        assertEquals("H1618 invalid argument: matrix 2x3 needs 48 element bytes, 56 follow the header",
                e.getMessage());
    }

    @Test
    void refusesAnExtentAbove2147483647() {
        ByteBuffer header = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putInt(0x8000_0000).putInt(0)
                .flip();
        SperliException e = assertThrows(SperliException.class, () -> TYPE.decode(header));
        assertEquals("H1618 invalid argument: matrix rows=2147483648, cols=0, maximum 2147483647 each",
                e.getMessage());
    }

    @Test
    void refusesAHeaderClaimingMoreElementsThanBytesFollowBeforeAllocating() {
        // 2147483647 x 2147483647 would be 2^65 bytes; sixteen bytes follow. Nothing may be allocated for it.
        ByteBuffer lying = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN)
                .putInt(Integer.MAX_VALUE).putInt(Integer.MAX_VALUE).putLong(0).putLong(0).flip();
        SperliException e = assertThrows(SperliException.class, () -> TYPE.decode(lying));
        assertEquals(ErrorCode.H1618, e.code());
        assertTrue(e.reason().startsWith("matrix cut: 2147483647x2147483647 needs "), e.getMessage());
    }

    @Test
    void aZeroExtentNeedsNoElementsWhateverTheOtherExtent() {
        ByteBuffer header = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putInt(0)
                .putInt(Integer.MAX_VALUE).flip();
        Matrix2D empty = TYPE.decode(header);
        assertEquals(0, empty.rows());
        assertEquals(Integer.MAX_VALUE, empty.cols());
        assertEquals(0, empty.toArray().length);
    }

    @Test
    void reduceIsElementByElementWithTheLeftOperandFirst() {
        Matrix2D b = Matrix2D.of(2, 3, 10, 20, 30, 40, 50, 60);
        assertEquals(Matrix2D.of(2, 3, 11, 22, 33, 44, 55, 66), TYPE.reduce(M23, b, ReduceOp.SUM));
        assertEquals(Matrix2D.of(2, 3, 1, 2, 3, 4, 5, 6), TYPE.reduce(M23, b, ReduceOp.MIN));
        assertEquals(Matrix2D.of(2, 3, 1, 2, 3, 4, 5, 6), M23, "operands are not changed");
    }

    @Test
    void reduceRefusesMatricesOfDifferentShapesWithH1618NamingBothEvenWhenTheElementCountsAgree() {
        SperliException e = assertThrows(SperliException.class,
                () -> TYPE.reduce(M23, Matrix2D.of(3, 2, 1, 2, 3, 4, 5, 6), ReduceOp.SUM));
        assertEquals("H1618 invalid argument: matrix shapes differ: 2x3 and 3x2", e.getMessage());
    }

    @Test
    void reduceRefusesAnOperationF64DoesNotAllowWithH1618() {
        SperliException e = assertThrows(SperliException.class, () -> TYPE.reduce(M23, M23, ReduceOp.BAND));
        assertEquals(ErrorCode.H1618, e.code());
    }

    @Test
    void ofRefusesDataThatDoesNotFitTheShapeAndCopiesWhatItKeeps() {
        SperliException e = assertThrows(SperliException.class, () -> Matrix2D.of(2, 2, 1, 2, 3));
        assertEquals("H1618 invalid argument: matrix 2x2 needs 4 elements, got 3", e.getMessage());
        assertEquals(ErrorCode.H1618, assertThrows(SperliException.class, () -> Matrix2D.of(-1, 0)).code());
        double[] data = {1, 2};
        Matrix2D m = Matrix2D.of(1, 2, data);
        data[0] = 99;
        m.toArray()[1] = 99;
        assertEquals(Matrix2D.of(1, 2, 1, 2), m);
        assertNotEquals(Matrix2D.of(2, 1, 1, 2), m, "same elements, another shape");
    }
}
