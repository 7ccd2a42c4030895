package org.sperli.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sperli.runtime.CollectiveFixture.LIMIT;
import static org.sperli.runtime.CollectiveFixture.bytes;
import static org.sperli.runtime.CollectiveFixture.contributions;
import static org.sperli.runtime.CollectiveFixture.fold;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sperli.ElementType;
import org.sperli.ReduceOp;
import org.sperli.SperliException;

/** Each collective with 1, 2, 3 and 8 ranks and several roots, over real TLS, gives the specified result. */
class CollectiveShapesTest {
    /** Data lengths on both sides of the copy threshold of {@link CollectiveWire#COPY_AT_MOST}, and empty. */
    private static final int[] LENGTHS = {0, 24, 40_000};

    /** Every root for small jobs; first, a middle one and last for 8 ranks. */
    private static int[] roots(int size) {
        return size <= 3 ? IntStream.range(0, size).toArray() : new int[] {0, 3, size - 1};
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 8})
    void everyCollectiveFromSeveralRootsGivesTheSpecifiedResult(int size) {
        AtomicInteger entered = new AtomicInteger();
        List<TestJob.Outcome<Integer>> out = new TestJob(size).run(LIMIT, rt -> {
            int checks = barrierRounds(rt, entered);
            long seed = 1;
            for (int root : roots(size)) {
                for (int length : LENGTHS) {
                    checks += bcast(rt, root, ++seed, length);
                    checks += reduce(rt, root, ++seed, length);
                    checks += allreduce(rt, ++seed, length);
                    checks += gather(rt, root, ++seed, length);
                    checks += scatter(rt, root, ++seed, length);
                }
            }
            return checks;
        });
        int expected = 3 + roots(size).length * LENGTHS.length * 5;
        for (TestJob.Outcome<Integer> o : out) {
            assertEquals(expected, o.get());
        }
    }

    /** No rank leaves barrier round k before every rank has entered it. */
    private static int barrierRounds(RankRuntime rt, AtomicInteger entered) {
        for (int round = 1; round <= 3; round++) {
            entered.incrementAndGet();
            rt.barrier();
            assertTrue(entered.get() >= round * rt.size(), "rank " + rt.rank() + " left barrier " + round
                    + " after only " + entered.get() + " entries");
        }
        return 3;
    }

    private static int bcast(RankRuntime rt, int root, long seed, int length) {
        byte[] sent = bytes(seed, root, length);
        byte[] got = rt.bcast(root, rt.rank() == root ? sent : null);
        assertArrayEquals(sent, got, "bcast from " + root + " at " + rt.rank());
        return 1;
    }

    private static int reduce(RankRuntime rt, int root, long seed, int length) {
        List<byte[]> all = contributions(seed, rt.size(), length);
        byte[] mine = all.get(rt.rank()).clone();
        byte[] got = rt.reduce(root, mine, ElementType.I64, ReduceOp.SUM);
        assertArrayEquals(all.get(rt.rank()), mine, "the contribution is not changed");
        if (rt.rank() == root) {
            assertArrayEquals(fold(all, ElementType.I64, ReduceOp.SUM), got, "reduce at " + root);
        } else {
            assertNull(got);
        }
        return 1;
    }

    private static int allreduce(RankRuntime rt, long seed, int length) {
        List<byte[]> all = contributions(seed, rt.size(), length);
        byte[] got = rt.allreduce(all.get(rt.rank()), ElementType.I32, ReduceOp.BXOR);
        assertArrayEquals(fold(all, ElementType.I32, ReduceOp.BXOR), got, "allreduce at " + rt.rank());
        return 1;
    }

    private static int gather(RankRuntime rt, int root, long seed, int length) {
        List<byte[]> all = contributions(seed, rt.size(), length);
        List<byte[]> got = rt.gather(root, all.get(rt.rank()));
        if (rt.rank() == root) {
            assertEquals(rt.size(), got.size());
            for (int r = 0; r < rt.size(); r++) {
                assertArrayEquals(all.get(r), got.get(r), "gather at " + root + ", block of " + r);
            }
            assertThrows(UnsupportedOperationException.class, () -> got.set(0, new byte[0]));
        } else {
            assertNull(got);
        }
        return 1;
    }

    /** Blocks of different lengths, the first of a root-0 scatter empty. */
    private static int scatter(RankRuntime rt, int root, long seed, int length) {
        List<byte[]> blocks = new ArrayList<>();
        for (int r = 0; r < rt.size(); r++) {
            blocks.add(bytes(seed, r, length == 0 ? 0 : length + r * 8 - root));
        }
        byte[] got = rt.scatter(root, rt.rank() == root ? blocks : null);
        assertArrayEquals(blocks.get(rt.rank()), got, "scatter from " + root + " at " + rt.rank());
        return 1;
    }

    @Test
    void withOneRankNothingIsSentAndTheDataComesBackAsGiven() {
        byte[] data = {1, 2, 3, 4, 5, 6, 7, 8};
        List<TestJob.Outcome<Integer>> out = new TestJob(1).run(LIMIT, rt -> {
            rt.barrier();
            assertSame(data, rt.bcast(0, data));
            assertSame(data, rt.reduce(0, data, ElementType.F64, ReduceOp.SUM));
            assertSame(data, rt.allreduce(data, ElementType.U32, ReduceOp.MIN));
            assertSame(data, rt.gather(0, data).get(0));
            assertSame(data, rt.scatter(0, List.of(data)));
            assertArrayEquals(new int[] {7, -1}, rt.allreduce(new int[] {7, -1}, ReduceOp.PROD));
            // The local checks still run.
            SperliException e = assertThrows(SperliException.class,
                    () -> rt.allreduce(data, ElementType.F64, ReduceOp.BAND));
            assertEquals("H1618", e.code().name());
            return 1;
        });
        assertEquals(1, out.get(0).get());
    }

    @Test
    void largestDataOfSixteenMiBLessTheHeaderGoesThroughBcastAndAllreduce() {
        int max = org.sperli.Communicator.MAX_COLLECTIVE_DATA;
        byte[] big = bytes(99, 0, max);
        List<TestJob.Outcome<Integer>> out = new TestJob(3).run(LIMIT, rt -> {
            assertArrayEquals(big, rt.bcast(2, rt.rank() == 2 ? big : null));
            byte[] xored = rt.allreduce(big, ElementType.BYTES, ReduceOp.BXOR);
            // Three equal contributions: x ^ x ^ x = x.
            assertArrayEquals(big, xored);
            return 1;
        });
        out.forEach(o -> assertEquals(1, o.get()));
    }
}
