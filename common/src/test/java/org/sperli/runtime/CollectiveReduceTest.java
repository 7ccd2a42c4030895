package org.sperli.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.sperli.runtime.CollectiveFixture.LIMIT;
import static org.sperli.runtime.CollectiveFixture.codes;
import static org.sperli.runtime.CollectiveFixture.contributions;
import static org.sperli.runtime.CollectiveFixture.fold;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sperli.ElementType;
import org.sperli.ReduceOp;

/** Reduce and allreduce: every element type x operation against Combine, fold order, typed forms, repeatability. */
class CollectiveReduceTest {
    /** 24 elements of the widest type: random bytes give NaNs with payloads, infinities, subnormals and zeros. */
    private static final int LENGTH = 24 * 8;

    @Test
    void everyTypeAndOperationOnThreeRanksEqualsTheLocalFoldAndRefusedPairsAreH1618OnEveryRank() {
        List<TestJob.Outcome<Integer>> out = new TestJob(3).run(LIMIT, rt -> {
            int checked = 0;
            long seed = 100;
            for (ElementType type : ElementType.values()) {
                for (ReduceOp op : ReduceOp.values()) {
                    List<byte[]> all = contributions(++seed, rt.size(), LENGTH);
                    byte[] mine = all.get(rt.rank());
                    String label = type + " " + op;
                    if (!op.allowedFor(type)) {
                        assertEquals("H1618 H1618", codes(rt, () -> rt.allreduce(mine, type, op),
                                () -> rt.reduce(2, mine, type, op)), label);
                        continue;
                    }
                    byte[] expected = fold(all, type, op);
                    assertArrayEquals(expected, rt.allreduce(mine, type, op), "allreduce " + label);
                    byte[] atRoot = rt.reduce(2, mine, type, op);
                    if (rt.rank() == 2) {
                        assertArrayEquals(expected, atRoot, "reduce " + label);
                    } else {
                        assertNull(atRoot);
                    }
                    checked++;
                }
            }
            return checked;
        });
        for (TestJob.Outcome<Integer> o : out) {
            // bytes: 3 bitwise; i32 u32 i64 u64: all 10; f32 f64: sum prod min max.
            assertEquals(3 + 4 * 10 + 2 * 4, o.get());
        }
    }

    /**
     * (1e16 + -1e16) + 1 = 1 but 1e16 + (-1e16 + 1) = 0: the root's own value is folded in its rank's place, so the
     * result is 1 whichever rank is the root, and a tree or arrival order would give 0 for some.
     */
    @Test
    void contributionsAreFoldedLeftInAscendingRankOrderWhateverTheRoot() {
        double[] values = {1e16, -1e16, 1.0};
        List<TestJob.Outcome<String>> out = new TestJob(3).run(LIMIT, rt -> {
            StringBuilder results = new StringBuilder();
            double[] mine = {values[rt.rank()]};
            for (int root = 0; root < 3; root++) {
                double[] got = rt.reduce(root, mine, ReduceOp.SUM);
                if (got != null) {
                    results.append(got[0]);
                }
            }
            results.append(' ').append(rt.allreduce(mine, ReduceOp.SUM)[0]);
            return results.toString();
        });
        assertEquals("1.0 1.0", out.get(0).get());
        assertEquals("1.0 1.0", out.get(1).get());
        assertEquals("1.0 1.0", out.get(2).get());
    }

    /**
     * 192 KiB per rank, above the size the decoder gathers apart: the root then folds into a received contribution's
     * own array (at root 0 as c1 op c0, the same bits) and the others keep the result array as it arrived. Whatever
     * the root, the result is the local fold, and no caller's array is changed.
     */
    @Test
    void largeDataAtEveryRootIsTheLocalFoldAndNoCallersArrayIsChanged() {
        int length = 192 * 1024;
        List<TestJob.Outcome<Integer>> out = new TestJob(3).run(LIMIT, rt -> {
            int checked = 0;
            long seed = 500;
            for (ElementType type : List.of(ElementType.F64, ElementType.F32, ElementType.I64)) {
                for (ReduceOp op : ReduceOp.values()) {
                    if (!op.allowedFor(type)) {
                        continue;
                    }
                    List<byte[]> all = contributions(++seed, rt.size(), length);
                    byte[] mine = all.get(rt.rank());
                    byte[] before = mine.clone();
                    byte[] expected = fold(all, type, op);
                    byte[] result = rt.allreduce(mine, type, op);
                    assertArrayEquals(expected, result, "allreduce " + type + " " + op);
                    assertNotSame(mine, result);
                    for (int root = 0; root < rt.size(); root++) {
                        byte[] atRoot = rt.reduce(root, mine, type, op);
                        if (root == rt.rank()) {
                            assertArrayEquals(expected, atRoot, "reduce at " + root + " " + type + " " + op);
                        } else {
                            assertNull(atRoot);
                        }
                    }
                    assertArrayEquals(before, mine, "the caller's data");
                    checked++;
                }
            }
            return checked;
        });
        // f64 f32: sum prod min max; i64: all 10
        out.forEach(o -> assertEquals(4 + 4 + 10, o.get()));
    }

    @Test
    void typedFormsMatchTheByteFormOnLittleEndianElements() {
        List<TestJob.Outcome<Integer>> out = new TestJob(3).run(LIMIT, rt -> {
            int r = rt.rank();
            // Sum wraps modulo 2^32: MAX_VALUE x 3 as Java's int arithmetic gives it.
            assertArrayEquals(new int[] {3, Integer.MAX_VALUE * 3, 10},
                    rt.allreduce(new int[] {1, Integer.MAX_VALUE, r == 1 ? 0 : 5}, ReduceOp.SUM));
            assertArrayEquals(new long[] {-2, 0}, rt.allreduce(new long[] {-2 + r, r == 2 ? 0 : 1}, ReduceOp.MIN));
            assertArrayEquals(new float[] {0.5f + 1.5f + 2.5f}, rt.allreduce(new float[] {0.5f + r}, ReduceOp.SUM));
            double[] max = rt.reduce(1, new double[] {r == 0 ? Double.NaN : r}, ReduceOp.MAX);
            if (r == 1) {
                assertEquals(0x7ff8000000000000L, Double.doubleToRawLongBits(max[0]), "canonical NaN");
            } else {
                assertNull(max);
            }
            int[] prod = rt.reduce(0, new int[] {r + 2}, ReduceOp.PROD);
            if (r == 0) {
                assertArrayEquals(new int[] {24}, prod);
            }
            long[] band = rt.reduce(2, new long[] {0xff00L | r}, ReduceOp.BAND);
            float[] fmin = rt.reduce(2, new float[] {r == 1 ? -0.0f : 0.0f}, ReduceOp.MIN);
            if (r == 2) {
                assertArrayEquals(new long[] {0xff00L}, band);
                assertEquals(Float.floatToRawIntBits(-0.0f), Float.floatToRawIntBits(fmin[0]), "-0.0 < +0.0");
            }
            // Unsigned elements go through the byte form: 0xffffffff is the largest u32 but -1 as an i32.
            byte[] ones = le(r == 0 ? -1 : 1);
            assertArrayEquals(le(1), rt.allreduce(ones, ElementType.U32, ReduceOp.MIN));
            assertArrayEquals(le(-1), rt.allreduce(ones, ElementType.I32, ReduceOp.MIN));
            return 1;
        });
        out.forEach(o -> assertEquals(1, o.get()));
    }

    private static byte[] le(int value) {
        return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(value).array();
    }

    /**
     * The root gives the arrays of the contributions it folded back for later frames of their length
     * ({@code RecycledArrays}); an array handed to a program (a result, a bcast's data) is never among them: after a run
     * of calls whose roots rotate, every array any of them returned still holds what it held when returned.
     */
    @Test
    void arraysHandedToTheProgramStayIntactWhileTheRootReusesTheArraysOfWhatItFolded() {
        int length = 128 * 1024;
        int calls = 12;
        List<TestJob.Outcome<Integer>> out = new TestJob(4).run(LIMIT, rt -> {
            List<byte[]> returned = new ArrayList<>();
            List<byte[]> copies = new ArrayList<>();
            for (int call = 0; call < calls; call++) {
                List<byte[]> all = contributions(900 + call, rt.size(), length);
                byte[] mine = all.get(rt.rank());
                byte[] expected = fold(all, ElementType.I64, ReduceOp.SUM);
                byte[] result = rt.allreduce(mine, ElementType.I64, ReduceOp.SUM);
                assertArrayEquals(expected, result, "allreduce " + call);
                int root = call % rt.size();
                byte[] atRoot = rt.reduce(root, mine, ElementType.I64, ReduceOp.SUM);
                byte[] sent = rt.bcast(root, root == rt.rank() ? mine : null);
                for (byte[] kept : java.util.Arrays.asList(result, atRoot, sent)) {
                    if (kept != null && kept != mine) {
                        returned.add(kept);
                        copies.add(kept.clone());
                    }
                }
            }
            for (int i = 0; i < returned.size(); i++) {
                assertArrayEquals(copies.get(i), returned.get(i), "returned array " + i + " after the last call");
            }
            return returned.size();
        });
        // Every rank: 12 results; the root of each call also its reduce result, the others the bcast data.
        out.forEach(o -> assertEquals(2 * calls, o.get()));
    }

    /** Float sums of 8 ranks give the same bytes on every rank, in every call and in another job. */
    @Test
    void repeatedRunsGiveIdenticalBytesFloatSumsIncluded() {
        List<String> digests = new ArrayList<>();
        for (int job = 0; job < 2; job++) {
            List<TestJob.Outcome<String>> out = new TestJob(8).run(LIMIT, rt -> {
                List<byte[]> all = contributions(7, rt.size(), 1 << 16);
                byte[] expected64 = fold(all, ElementType.F64, ReduceOp.SUM);
                byte[] expected32 = fold(all, ElementType.F32, ReduceOp.SUM);
                byte[] first = rt.allreduce(all.get(rt.rank()), ElementType.F64, ReduceOp.SUM);
                for (int call = 0; call < 4; call++) {
                    assertArrayEquals(expected64, rt.allreduce(all.get(rt.rank()), ElementType.F64, ReduceOp.SUM));
                    assertArrayEquals(expected32, rt.allreduce(all.get(rt.rank()), ElementType.F32, ReduceOp.SUM));
                }
                byte[] atRoot = rt.reduce(5, all.get(rt.rank()), ElementType.F64, ReduceOp.SUM);
                if (atRoot != null) {
                    assertArrayEquals(expected64, atRoot);
                }
                return HexFormat.of().formatHex(org.sperli.crypto.Sha256.of(first));
            });
            out.forEach(o -> digests.add(o.get()));
        }
        assertEquals(1, digests.stream().distinct().count(), "every rank of both jobs saw the same bytes");
    }
}
