package org.sperli.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.sperli.ElementType;
import org.sperli.ReduceOp;
import org.sperli.SperliException;
import org.sperli.collective.Combine;
import org.sperli.protocol.payload.CollectiveHeader;

/**
 * The mesh's reduce and allreduce give exactly the star's bytes: the left fold ((c0 op c1) op c2) ... in ascending
 * rank order ({@link CollectiveFixture#fold}, the star root's result), for every allowed (type, operation), sizes
 * from 0 to 16 MiB on both sides of {@link MeshSchedule#SEGMENTS_AT}, 2 to 17 ranks and every root, with floats
 * that include NaNs of many payloads, -0.0, infinities and subnormals. The schedules run over {@link MemoryPorts};
 * {@link MeshJobTest} runs a few of the same over TLS, star and mesh side by side.
 */
class MeshBitIdentityTest {
    private static final int[] RANKS = {2, 3, 5, 8, 13, 17};

    @Test
    void everyAllowedTypeAndOperationFoldsInRankOrderOnBothSidesOfTheSegmentThreshold() {
        long seed = 1;
        for (ElementType type : ElementType.values()) {
            for (ReduceOp op : ReduceOp.values()) {
                if (!allowed(type, op)) {
                    continue;
                }
                int w = type.width();
                int[] bytes = {0, w, 7 * w, MeshSchedule.SEGMENTS_AT - w, MeshSchedule.SEGMENTS_AT,
                    MeshSchedule.SEGMENTS_AT + 37 * w};
                for (int i = 0; i < bytes.length; i++) {
                    int size = RANKS[(i + type.ordinal() + op.ordinal()) % RANKS.length];
                    checkAllreduce(size, bytes[i], type, op, seed++);
                    checkReduce(size, bytes[i], type, op, (int) (seed % size), seed++);
                }
            }
        }
    }

    @Test
    void everyRankCountFrom2To17AndEveryRootGivesTheStarsBits() {
        long seed = 100;
        for (int size = 2; size <= 17; size++) {
            for (int bytes : new int[] {8 * 1000, 8 * (MeshSchedule.SEGMENTS_AT / 8 + size + 3)}) {
                checkAllreduce(size, bytes, ElementType.F64, ReduceOp.SUM, seed++);
                for (int root = 0; root < size; root++) {
                    checkReduce(size, bytes, root % 2 == 0 ? ElementType.F32 : ElementType.F64,
                            root % 3 == 0 ? ReduceOp.PROD : ReduceOp.SUM, root, seed++);
                }
            }
        }
    }

    @Test
    void oneMebibyteAndSixteenMebibytesFoldAsTheStar() {
        checkAllreduce(8, 1 << 20, ElementType.F64, ReduceOp.SUM, 7);
        checkReduce(17, (1 << 20) + 8 * 17, ElementType.F32, ReduceOp.MAX, 16, 8);
        checkAllreduce(3, 16 << 20, ElementType.F64, ReduceOp.SUM, 9);
        checkReduce(2, 16 << 20, ElementType.I64, ReduceOp.PROD, 1, 10);
    }

    /** A segment's elements never split: the segment bounds are whole elements, for every width and rank count. */
    @Test
    void segmentsAreWholeElementsAndCoverTheDataOnce() {
        for (int size = 2; size <= 17; size++) {
            for (int width : new int[] {1, 4, 8}) {
                int bytes = width * (MeshSchedule.SEGMENTS_AT / width + 2 * size + 1);
                assertEquals(0, MeshSchedule.segmentStart(0, bytes, width, size));
                assertEquals(bytes, MeshSchedule.segmentStart(size, bytes, width, size));
                for (int k = 0; k < size; k++) {
                    int start = MeshSchedule.segmentStart(k, bytes, width, size);
                    assertEquals(0, start % width);
                    assertEquals(true, MeshSchedule.segmentStart(k + 1, bytes, width, size) > start);
                }
            }
        }
    }

    private static void checkAllreduce(int size, int bytes, ElementType type, ReduceOp op, long seed) {
        List<byte[]> data = contributions(size, bytes, type, seed);
        byte[] star = CollectiveFixture.fold(data, type, op);
        CollectiveCall call = new CollectiveCall(CollectiveHeader.ALLREDUCE, type.code(), op.code(), 0, 1);
        MemoryPorts ports = new MemoryPorts(size);
        List<byte[]> out = ports.run(port -> new MeshReduce(port).allreduce(call, data.get(port.rank())));
        for (int r = 0; r < size; r++) {
            assertArrayEquals(star, out.get(r), () -> "allreduce " + type + " " + op + " " + bytes + " bytes");
        }
        assertEquals(List.of(), ports.aborts);
    }

    private static void checkReduce(int size, int bytes, ElementType type, ReduceOp op, int root, long seed) {
        List<byte[]> data = contributions(size, bytes, type, seed);
        byte[] star = CollectiveFixture.fold(data, type, op);
        CollectiveCall call = new CollectiveCall(CollectiveHeader.REDUCE, type.code(), op.code(), root, 1);
        List<byte[]> out = new MemoryPorts(size).run(port -> new MeshReduce(port).reduce(call,
                data.get(port.rank())));
        for (int r = 0; r < size; r++) {
            if (r == root) {
                assertArrayEquals(star, out.get(r), () -> "reduce " + type + " " + op + " " + bytes + " bytes");
            } else {
                assertNull(out.get(r));
            }
        }
    }

    private static boolean allowed(ElementType type, ReduceOp op) {
        try {
            Combine.check(type, op, 0);
            return true;
        } catch (SperliException e) {
            return false;
        }
    }

    /** Random contributions; floats a mix of normals, NaNs of random payloads, signed zeros, infinities, subnormals. */
    static List<byte[]> contributions(int size, int bytes, ElementType type, long seed) {
        List<byte[]> all = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            SplittableRandom random = new SplittableRandom(seed * 7919 + r);
            byte[] b = new byte[bytes];
            if (type == ElementType.F64) {
                java.nio.ByteBuffer out = java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN);
                for (int i = 0; i < bytes / 8; i++) {
                    out.putLong(special64(random));
                }
            } else if (type == ElementType.F32) {
                java.nio.ByteBuffer out = java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN);
                for (int i = 0; i < bytes / 4; i++) {
                    out.putInt(special32(random));
                }
            } else {
                for (int i = 0; i < bytes; i++) {
                    b[i] = (byte) random.nextInt(256);
                }
            }
            all.add(b);
        }
        return all;
    }

    private static long special64(SplittableRandom random) {
        return switch (random.nextInt(12)) {
            case 0 -> 0x7ff0_0000_0000_0000L | 1L << 51 | random.nextLong() & 0x0007_ffff_ffff_ffffL
                    | (random.nextBoolean() ? Long.MIN_VALUE : 0);
            case 1 -> Double.doubleToRawLongBits(-0.0);
            case 2 -> random.nextBoolean() ? Double.doubleToRawLongBits(Double.POSITIVE_INFINITY)
                    : Double.doubleToRawLongBits(Double.NEGATIVE_INFINITY);
            case 3 -> random.nextLong() & 0x800f_ffff_ffff_ffffL;
            case 4 -> 0L;
            default -> Double.doubleToRawLongBits((random.nextDouble() - 0.5) * Math.scalb(1.0, random.nextInt(-30, 30)));
        };
    }

    private static int special32(SplittableRandom random) {
        return switch (random.nextInt(12)) {
            case 0 -> 0x7fc0_0000 | random.nextInt() & 0x003f_ffff | (random.nextBoolean() ? Integer.MIN_VALUE : 0);
            case 1 -> Float.floatToRawIntBits(-0.0f);
            case 2 -> random.nextBoolean() ? Float.floatToRawIntBits(Float.POSITIVE_INFINITY)
                    : Float.floatToRawIntBits(Float.NEGATIVE_INFINITY);
            case 3 -> random.nextInt() & 0x807f_ffff;
            case 4 -> 0;
            default -> Float.floatToRawIntBits((float) ((random.nextDouble() - 0.5) * Math.scalb(1.0,
                    random.nextInt(-20, 20))));
        };
    }
}
