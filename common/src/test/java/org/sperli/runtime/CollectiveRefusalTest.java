package org.sperli.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sperli.runtime.CollectiveFixture.LIMIT;
import static org.sperli.runtime.CollectiveFixture.codes;
import static org.sperli.runtime.CollectiveFixture.message;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.sperli.Communicator;
import org.sperli.ElementType;
import org.sperli.ReduceOp;

/**
 * Checks every rank makes alone, before anything is sent: every rank refuses the same call with H1618, the refused
 * call still counts, and the job goes on (the collectives after it work).
 */
class CollectiveRefusalTest {
    private static final byte[] EIGHT = new byte[8];

    @Test
    void rootOutOfRangeIsH1618OnEveryRankAndTheJobGoesOn() {
        List<TestJob.Outcome<String>> out = new TestJob(3).run(LIMIT, rt -> {
            String refused = codes(rt,
                    () -> rt.bcast(3, EIGHT),
                    () -> rt.bcast(-1, EIGHT),
                    () -> rt.reduce(3, EIGHT, ElementType.I64, ReduceOp.SUM),
                    () -> rt.reduce(Integer.MIN_VALUE, new long[1], ReduceOp.SUM),
                    () -> rt.gather(3, EIGHT),
                    () -> rt.scatter(3, List.of(EIGHT, EIGHT, EIGHT)),
                    () -> rt.scatter(-1, null));
            return refused + " | " + afterwards(rt);
        });
        for (TestJob.Outcome<String> o : out) {
            assertEquals("H1618 H1618 H1618 H1618 H1618 H1618 H1618 | ok", o.get());
        }
    }

    @Test
    void typeAndOperationNotAllowedTogetherAreH1618OnEveryRank() {
        List<TestJob.Outcome<String>> out = new TestJob(3).run(LIMIT, rt -> {
            String refused = codes(rt,
                    () -> rt.allreduce(EIGHT, ElementType.BYTES, ReduceOp.SUM),
                    () -> rt.allreduce(EIGHT, ElementType.BYTES, ReduceOp.LAND),
                    () -> rt.reduce(1, EIGHT, ElementType.F32, ReduceOp.BAND),
                    () -> rt.allreduce(new double[1], ReduceOp.LXOR),
                    () -> rt.reduce(0, new float[1], ReduceOp.BOR));
            return refused + " | " + afterwards(rt);
        });
        for (TestJob.Outcome<String> o : out) {
            assertEquals("H1618 H1618 H1618 H1618 H1618 | ok", o.get());
        }
    }

    /** Codes the enums cannot express go through the engine: operation 0, type above 6, operation above 10. */
    @Test
    void operationZeroTypeAboveSixAndOperationAboveTenAreH1618OnEveryRank() {
        List<TestJob.Outcome<String>> out = new TestJob(3).run(LIMIT, rt -> {
            CollectiveEngine engine = TestJob.parts(rt).collectives();
            String refused = codes(rt,
                    () -> engine.allreduce(EIGHT, ElementType.I64.code(), 0),
                    () -> engine.allreduce(EIGHT, 7, ReduceOp.BXOR.code()),
                    () -> engine.reduce(2, EIGHT, 255, ReduceOp.SUM.code()),
                    () -> engine.reduce(0, EIGHT, ElementType.I32.code(), 11),
                    () -> engine.allreduce(EIGHT, ElementType.U64.code(), 255),
                    () -> rt.allreduce(EIGHT, ElementType.I64, null),
                    () -> rt.allreduce(EIGHT, null, ReduceOp.SUM));
            return refused + " | " + afterwards(rt);
        });
        for (TestJob.Outcome<String> o : out) {
            assertEquals("H1618 H1618 H1618 H1618 H1618 H1618 H1618 | ok", o.get());
        }
    }

    @Test
    void dataThatIsNotAWholeNumberOfElementsIsH1618OnEveryRank() {
        List<TestJob.Outcome<String>> out = new TestJob(3).run(LIMIT, rt -> {
            String refused = codes(rt,
                    () -> rt.allreduce(new byte[3], ElementType.I32, ReduceOp.SUM),
                    () -> rt.allreduce(new byte[12], ElementType.F64, ReduceOp.SUM),
                    () -> rt.reduce(2, new byte[7], ElementType.U64, ReduceOp.MAX),
                    () -> rt.reduce(0, null, ElementType.BYTES, ReduceOp.BXOR));
            return refused + " | " + afterwards(rt);
        });
        for (TestJob.Outcome<String> o : out) {
            assertEquals("H1618 H1618 H1618 H1618 | ok", o.get());
        }
    }

    /** The limit is 16777200 bytes, whole elements or not: limit + 1 and limit + 8 refused, the limit itself sent. */
    @Test
    void dataOverSixteenMiBLessTheHeaderIsH1618OnEveryRankThatHoldsIt() {
        int max = Communicator.MAX_COLLECTIVE_DATA;
        byte[] over = new byte[max + 8];
        List<TestJob.Outcome<String>> out = new TestJob(3).run(LIMIT, rt -> {
            String refused = codes(rt,
                    () -> rt.allreduce(new byte[max + 1], ElementType.BYTES, ReduceOp.BOR),
                    () -> rt.allreduce(over, ElementType.F64, ReduceOp.SUM),
                    () -> rt.reduce(1, over, ElementType.I64, ReduceOp.SUM),
                    () -> rt.gather(0, over));
            String message = message(() -> rt.allreduce(over, ElementType.U64, ReduceOp.BAND));
            assertTrue(message.startsWith("H1618 invalid argument: data length=16777208, maximum 16777200"),
                    message);
            byte[] limit = new byte[max];
            limit[max - 1] = (byte) (1 << rt.rank());
            byte[] or = rt.allreduce(limit, ElementType.BYTES, ReduceOp.BOR);
            assertEquals(7, or[max - 1]);
            return refused + " | " + afterwards(rt);
        });
        for (TestJob.Outcome<String> o : out) {
            assertEquals("H1618 H1618 H1618 H1618 | ok", o.get());
        }
    }

    @Test
    void refusalsCountAsCallsSoEqualRefusalsKeepTheRanksInStep() {
        List<TestJob.Outcome<String>> out = new TestJob(2).run(LIMIT, rt -> {
            // Both ranks refuse call 1 and make call 2; if a refusal did not count on one rank, call 2 would not match.
            String codes = codes(rt,
                    () -> rt.reduce(0, new byte[5], ElementType.I32, ReduceOp.SUM),
                    () -> rt.allreduce(new int[] {rt.rank() + 1}, ReduceOp.SUM));
            int[] sum = rt.allreduce(new int[] {rt.rank() + 1}, ReduceOp.SUM);
            return codes + " " + sum[0];
        });
        assertEquals("H1618 ok 3", out.get(0).get());
        assertEquals("H1618 ok 3", out.get(1).get());
    }

    /** A barrier and an allreduce after the refusals: the job went on and every rank still counts alike. */
    private static String afterwards(RankRuntime rt) {
        rt.barrier();
        long[] sum = rt.allreduce(new long[] {rt.rank()}, ReduceOp.SUM);
        assertArrayEquals(new long[] {(long) rt.size() * (rt.size() - 1) / 2}, sum);
        return rt.failure() == null ? "ok" : rt.failure().getMessage();
    }
}
