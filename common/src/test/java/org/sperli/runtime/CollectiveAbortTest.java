package org.sperli.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sperli.runtime.CollectiveFixture.LIMIT;
import static org.sperli.runtime.CollectiveFixture.codes;
import static org.sperli.runtime.CollectiveFixture.forge;
import static org.sperli.runtime.CollectiveFixture.forgeRaw;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.sperli.Communicator;
import org.sperli.ElementType;
import org.sperli.ReduceOp;
import org.sperli.protocol.payload.CollectiveHeader;

/**
 * Checks only one rank can make end the job: that rank sends ABORT (reason 3, or 4 for scatter blocks) and returns
 * its code; every other rank returns H1612 from its current or next call. A rank whose call already completed before
 * the ABORT arrived returns "ok" for it, so other ranks are checked as "ok ... H1612".
 *
 * <p>Every code is exact, with three ranks too: a rank that receives the ABORT closes its connections at once, and
 * the third rank may see that close before the ABORT on its own link from the refusing rank, but it judges a close
 * without BYE only after the close grace (protocol 7.5), by when the ABORT has arrived: it returns H1612 as well.
 */
class CollectiveAbortTest {
    private static final byte[] EIGHT = new byte[8];
    /** What a rank that did not refuse returns: H1612, maybe after calls that completed before the ABORT. */
    private static final String ABORTED = "(ok )*H1612";

    /** A star job: these tests forge the star's phases; the mesh's own refusals are in MeshRefusalTest. */
    private static List<String> run(int size, Function<RankRuntime, String> body) {
        return new TestJob(size).collectives(CollectiveShape.STAR).endings(LIMIT, body);
    }

    private static void assertCodes(List<String> outcomes, String... patterns) {
        for (int r = 0; r < patterns.length; r++) {
            String codes = outcomes.get(r).substring(0, outcomes.get(r).indexOf(" | "));
            assertTrue(codes.matches(patterns[r]), "rank " + r + ": " + outcomes.get(r) + ", expected "
                    + patterns[r] + "; all: " + outcomes);
        }
    }

    private static void assertAbortSeen(String outcome, int reason, String code) {
        assertTrue(outcome.contains(abortText(reason, code)), outcome);
    }

    private static void assertAbortSeenByOne(List<String> outcomes, int reason, String code) {
        assertTrue(outcomes.stream().anyMatch(o -> o.contains(abortText(reason, code))), outcomes.toString());
    }

    private static String abortText(int reason, String code) {
        return "aborted the job (reason " + reason + ", code " + code + ")";
    }

    // ---- scatter data at the root: ABORT reason 4, the root H1618, the others H1612 --------------------------

    @Test
    void scatterWithoutOneBlockPerRankEndsTheJobH1618AtTheRootH1612Elsewhere() {
        List<String> out = run(3, rt -> codes(rt,
                () -> rt.scatter(1, rt.rank() == 1 ? List.of(EIGHT, EIGHT) : null),
                rt::barrier));
        assertCodes(out, ABORTED, "H1618", ABORTED);
        assertTrue(out.get(1).contains("blocks=2, expected one per rank: 3"), out.get(1));
        assertAbortSeenByOne(out, 4, "H1618");
    }

    @Test
    void scatterBlockOverTheLimitEndsTheJobH1618AtTheRoot() {
        byte[] over = new byte[Communicator.MAX_COLLECTIVE_DATA + 1];
        List<String> out = run(2, rt -> codes(rt,
                () -> rt.scatter(0, rt.rank() == 0 ? List.of(EIGHT, over) : null)));
        assertCodes(out, "H1618", "H1612");
        assertTrue(out.get(0).contains("block 1 length=16777201, maximum 16777200"), out.get(0));
        assertAbortSeen(out.get(1), 4, "H1618");
    }

    @Test
    void scatterWithANullBlockEndsTheJobH1618AtTheRoot() {
        List<String> out = run(2, rt -> codes(rt,
                () -> rt.scatter(1, rt.rank() == 1 ? Arrays.asList(EIGHT, null) : null)));
        assertCodes(out, "H1612", "H1618");
    }

    // ---- a collective frame that does not answer the call: ABORT reason 3, H1617 -----------------------------

    @Test
    void aRankCallingAnotherCollectiveEndsTheJobH1617AtTheRankThatSeesIt() {
        List<String> out = run(3, rt -> codes(rt,
                () -> {
                    if (rt.rank() == 1) {
                        rt.gather(0, EIGHT);
                    } else {
                        rt.reduce(0, EIGHT, ElementType.I64, ReduceOp.SUM);
                    }
                },
                rt::barrier));
        assertCodes(out, "H1617", ABORTED, ABORTED);
        assertTrue(out.get(0).contains("rank 0, reduce #1: frame from rank 1: operation=5, expected 3"), out.get(0));
        assertAbortSeenByOne(out, 3, "H1617");
    }

    @Test
    void anotherReduceOperationEndsTheJobH1617() {
        List<String> out = run(3, rt -> codes(rt,
                () -> rt.allreduce(new int[] {1}, rt.rank() == 2 ? ReduceOp.MAX : ReduceOp.SUM)));
        assertCodes(out, "H1617", ABORTED, ABORTED);
        assertTrue(out.get(0).contains("frame from rank 2: reduce operation=4, expected 1"), out.get(0));
    }

    @Test
    void anotherElementTypeEndsTheJobH1617() {
        List<String> out = run(2, rt -> codes(rt,
                () -> rt.allreduce(EIGHT, rt.rank() == 1 ? ElementType.F64 : ElementType.I64, ReduceOp.SUM)));
        assertCodes(out, "H1617", "H1612");
        assertTrue(out.get(0).contains("element type=6, expected 3"), out.get(0));
    }

    /** Tables section 9: a refusal only one rank makes needs no ABORT; its next call is one ahead (H1617). */
    @Test
    void aRefusalOnlyOneRankMakesShowsAsASequenceMismatchAtItsNextCall() {
        List<String> out = run(2, rt -> codes(rt,
                () -> rt.allreduce(new byte[rt.rank() == 1 ? 3 : 4], ElementType.I32, ReduceOp.SUM),
                () -> rt.allreduce(new byte[4], ElementType.I32, ReduceOp.SUM)));
        assertCodes(out, "H1617", "H1618 H1612");
        assertTrue(out.get(0).contains("frame from rank 1: sequence=2, expected 1"), out.get(0));
    }

    /** Refused at the root alone, the others would wait for the data for ever: the root ends the job. */
    @Test
    void bcastDataOverTheLimitEndsTheJobH1618AtTheRootH1612Elsewhere() {
        byte[] over = new byte[Communicator.MAX_COLLECTIVE_DATA + 1];
        List<String> out = run(3, rt -> codes(rt,
                () -> rt.bcast(1, rt.rank() == 1 ? over : null),
                () -> rt.recv(1, 7)));
        assertCodes(out, ABORTED, "H1618", ABORTED);
        assertTrue(out.get(1).contains("data length=16777201, maximum 16777200 at the root"), out.get(1));
        assertAbortSeenByOne(out, 4, "H1618");
    }

    @Test
    void bcastWithoutDataAtTheRootEndsTheJobH1618AtTheRoot() {
        List<String> out = run(2, rt -> codes(rt, () -> rt.bcast(0, null)));
        assertCodes(out, "H1618", "H1612");
        assertTrue(out.get(0).contains("data=null at the root"), out.get(0));
    }

    @Test
    void anotherRootInTheHeaderEndsTheJobH1617() {
        List<String> out = run(2, rt -> codes(rt, () -> {
            if (rt.rank() == 1) {
                forge(rt, 0, new CollectiveHeader(CollectiveHeader.GATHER, 0, 0, 0, 1, 1), EIGHT);
                rt.barrier();
            } else {
                rt.gather(0, EIGHT);
            }
        }));
        assertCodes(out, "H1617", "H1612");
        assertTrue(out.get(0).contains("root=1, expected 0"), out.get(0));
    }

    @Test
    void anotherPhaseInTheHeaderEndsTheJobH1617() {
        List<String> out = run(2, rt -> codes(rt, () -> {
            if (rt.rank() == 1) {
                forge(rt, 0, new CollectiveHeader(CollectiveHeader.BARRIER, 0, 0, 1, 0, 1), new byte[0]);
                rt.barrier();
            } else {
                rt.barrier();
            }
        }));
        assertCodes(out, "H1617", "H1612");
        assertTrue(out.get(0).contains("phase=1, expected 0"), out.get(0));
    }

    @Test
    void aMalformedCollectiveHeaderEndsTheJobH1617() {
        List<String> out = run(2, rt -> codes(rt, () -> {
            if (rt.rank() == 1) {
                byte[] raw = new byte[CollectiveHeader.LENGTH];
                raw[CollectiveHeader.OPERATION_OFFSET] = 9;
                raw[CollectiveHeader.SEQUENCE_OFFSET] = 1;
                forgeRaw(rt, 0, raw);
                rt.barrier();
            } else {
                rt.barrier();
            }
        }));
        assertCodes(out, "H1617", "H1612");
        assertTrue(out.get(0).contains("operation=9, expected 1..6"), out.get(0));
    }

    @Test
    void aBarrierFrameWithDataEndsTheJobH1617() {
        List<String> out = run(2, rt -> codes(rt, () -> {
            if (rt.rank() == 1) {
                forge(rt, 0, new CollectiveHeader(CollectiveHeader.BARRIER, 0, 0, 0, 0, 1), new byte[1]);
                rt.barrier();
            } else {
                rt.barrier();
            }
        }));
        assertCodes(out, "H1617", "H1612");
        assertTrue(out.get(0).contains("barrier data length=1, expected 0"), out.get(0));
    }

    @Test
    void anAllreduceResultOfAnotherLengthThanTheContributionEndsTheJobH1617() {
        List<String> out = run(2, rt -> codes(rt, () -> {
            if (rt.rank() == 0) {
                // Rank 0 plays a faulty root: it takes the contribution and answers with 8 bytes for 16.
                TestJob.parts(rt).frames().awaitCollective(1).release();
                forge(rt, 1, new CollectiveHeader(CollectiveHeader.ALLREDUCE, ElementType.F64.code(),
                        ReduceOp.SUM.code(), CollectiveHeader.FROM_ROOT, 0, 1), EIGHT);
                rt.barrier();
            } else {
                rt.allreduce(new double[2], ReduceOp.SUM);
            }
        }));
        assertCodes(out, "H1612", "H1617");
        assertTrue(out.get(1).contains("result length=8, contribution 16"), out.get(1));
    }

    // ---- lengths: a reduce H1618 (ABORT reason 3, code 1618), a gather H1617 ---------------------------------

    @Test
    void reduceContributionsOfDifferentLengthEndTheJobH1618AtTheRoot() {
        List<String> out = run(3, rt -> codes(rt,
                () -> rt.reduce(2, new long[rt.rank() == 1 ? 2 : 1], ReduceOp.SUM),
                rt::barrier));
        assertCodes(out, ABORTED, ABORTED, "H1618");
        assertTrue(out.get(2).contains("contribution of rank 1 has length=16, root's 8"), out.get(2));
        assertAbortSeenByOne(out, 3, "H1618");
    }

    @Test
    void allreduceContributionsOfDifferentLengthEndTheJobH1618AtRankZero() {
        List<String> out = run(2, rt -> codes(rt,
                () -> rt.allreduce(new float[rt.rank() == 0 ? 2 : 3], ReduceOp.MAX)));
        assertCodes(out, "H1618", "H1612");
        assertTrue(out.get(0).contains("contribution of rank 1 has length=12, root's 8"), out.get(0));
        assertAbortSeen(out.get(1), 3, "H1618");
    }

    @Test
    void gatherBlocksOfDifferentLengthEndTheJobH1617AtTheRoot() {
        List<String> out = run(2, rt -> codes(rt,
                () -> rt.gather(1, new byte[rt.rank() == 0 ? 9 : 8]),
                rt::barrier));
        assertCodes(out, ABORTED, "H1617");
        assertTrue(out.get(1).contains("frame from rank 0: block length=9, root's block 8"), out.get(1));
        assertAbortSeen(out.get(0), 3, "H1617");
    }
}
