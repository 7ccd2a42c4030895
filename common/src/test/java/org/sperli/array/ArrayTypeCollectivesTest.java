package org.sperli.array;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sperli.ArrayType;
import org.sperli.Communicator;
import org.sperli.ReduceOp;
import org.sperli.SperliException;
import org.sperli.collective.Combine;
import org.sperli.runtime.RankRuntime;
import org.sperli.runtime.TestJob;

/**
 * The collectives over {@link ArrayType}s on real ranks over TLS: every flat type and the 2-D matrix through bcast,
 * gather, scatter, reduce and allreduce with 1, 3 and 8 ranks; and the refusals, with their codes on every rank.
 */
class ArrayTypeCollectivesTest {
    private static final Duration LIMIT = Duration.ofSeconds(60);
    /** A third rank: the ABORT, or another bystander's close that overtook it (see CollectiveAbortTest). */
    private static final String BYSTANDER = "(ok )*H161[23]";

    /** Makes a value of {@code n} elements (n rows of a matrix) from a random source. */
    interface Maker<T> {
        T make(SplittableRandom random, int n);
    }

    /**
     * One type under test, with the operation its reduce is checked with and the fold computed without SPERLI:
     * {@link Combine} over the encodings for flat types, plain arithmetic for the matrix.
     */
    record Case<T>(ArrayType<T> type, Maker<T> maker, ReduceOp op, Function<List<T>, T> expectedFold) {
        T value(long seed, int rank, int n) {
            return maker.make(new SplittableRandom(seed * 1_000_003L + rank), n);
        }
    }

    private static <T> Case<T> flat(ArrayType<T> type, Maker<T> maker, ReduceOp op) {
        return new Case<>(type, maker, op, values -> {
            byte[] acc = ArrayTypes.toBytes(type, values.get(0));
            for (int r = 1; r < values.size(); r++) {
                Combine.into(acc, ArrayTypes.toBytes(type, values.get(r)), type.elementType(values.get(r)), op);
            }
            return ArrayTypes.fromBytes(type, acc);
        });
    }

    private static final List<Case<?>> CASES = List.of(
            flat(ArrayTypes.BYTES, (rnd, n) -> {
                byte[] out = new byte[n];
                rnd.nextBytes(out);
                return out;
            }, ReduceOp.BXOR),
            flat(ArrayTypes.I32, (rnd, n) -> rnd.ints(n).toArray(), ReduceOp.SUM),
            flat(ArrayTypes.U32, (rnd, n) -> rnd.ints(n).toArray(), ReduceOp.MAX),
            flat(ArrayTypes.I64, (rnd, n) -> rnd.longs(n).toArray(), ReduceOp.PROD),
            flat(ArrayTypes.U64, (rnd, n) -> rnd.longs(n).toArray(), ReduceOp.MIN),
            flat(ArrayTypes.F32, (rnd, n) -> {
                float[] out = new float[n];
                for (int i = 0; i < n; i++) {
                    out[i] = (float) (rnd.nextDouble() * 200 - 100);
                }
                return out;
            }, ReduceOp.SUM),
            flat(ArrayTypes.F64, (rnd, n) -> rnd.doubles(n, -1e6, 1e6).toArray(), ReduceOp.SUM),
            new Case<>(ArrayTypes.MATRIX_2D, (rnd, n) -> Matrix2D.of(n, 3, rnd.doubles(n * 3L, -1, 1).toArray()),
                    ReduceOp.SUM, ArrayTypeCollectivesTest::sum));

    /** Element-wise sum in ascending rank order, ((m0 + m1) + m2) ..., with Java's own doubles. */
    private static Matrix2D sum(List<Matrix2D> matrices) {
        double[] acc = matrices.get(0).toArray();
        for (int r = 1; r < matrices.size(); r++) {
            double[] next = matrices.get(r).toArray();
            for (int i = 0; i < acc.length; i++) {
                acc[i] += next[i];
            }
        }
        return Matrix2D.of(matrices.get(0).rows(), matrices.get(0).cols(), acc);
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 3, 8})
    void everyFlatTypeAndTheMatrixGoThroughEveryCollectiveFromTheFirstAndLastRoot(int size) {
        int[] roots = size == 1 ? new int[] {0} : new int[] {0, size - 1};
        List<TestJob.Outcome<Integer>> out = new TestJob(size).run(LIMIT, rt -> {
            int checks = 0;
            long seed = 100;
            for (Case<?> c : CASES) {
                for (int root : roots) {
                    checks += bcast(rt, c, root, ++seed);
                    checks += gather(rt, c, root, ++seed);
                    checks += scatter(rt, c, root, ++seed);
                    checks += reduce(rt, c, root, ++seed);
                }
                checks += allreduce(rt, c, ++seed);
            }
            return checks;
        });
        for (TestJob.Outcome<Integer> o : out) {
            assertEquals(CASES.size() * (roots.length * 4 + 1), o.get());
        }
    }

    private static <T> int bcast(Communicator comm, Case<T> c, int root, long seed) {
        T sent = c.value(seed, root, 5);
        T got = comm.bcast(root, comm.rank() == root ? sent : null, c.type());
        if (comm.rank() == root) {
            assertSame(sent, got, "the root's value itself");
        }
        assertEncodedEquals(c.type(), sent, got, "bcast of " + c.type() + " from " + root + " at " + comm.rank());
        return 1;
    }

    private static <T> int gather(Communicator comm, Case<T> c, int root, long seed) {
        T mine = c.value(seed, comm.rank(), 4);
        List<T> got = comm.gather(root, mine, c.type());
        if (comm.rank() != root) {
            assertNull(got);
            return 1;
        }
        assertEquals(comm.size(), got.size());
        assertSame(mine, got.get(root));
        for (int r = 0; r < comm.size(); r++) {
            assertEncodedEquals(c.type(), c.value(seed, r, 4), got.get(r), "gather of " + c.type() + ", rank " + r);
        }
        return 1;
    }

    /** Value r has r + 1 elements (rows): the blocks differ in length. */
    private static <T> int scatter(Communicator comm, Case<T> c, int root, long seed) {
        List<T> values = new ArrayList<>();
        for (int r = 0; r < comm.size(); r++) {
            values.add(c.value(seed, r, r + 1));
        }
        T got = comm.scatter(root, comm.rank() == root ? values : null, c.type());
        if (comm.rank() == root) {
            assertSame(values.get(root), got);
        }
        assertEncodedEquals(c.type(), values.get(comm.rank()), got, "scatter of " + c.type() + " at " + comm.rank());
        return 1;
    }

    private static <T> int reduce(Communicator comm, Case<T> c, int root, long seed) {
        T got = comm.reduce(root, c.value(seed, comm.rank(), 6), c.op(), c.type());
        if (comm.rank() != root) {
            assertNull(got);
            return 1;
        }
        assertEncodedEquals(c.type(), c.expectedFold().apply(all(comm, c, seed, 6)), got,
                "reduce of " + c.type() + " at " + root);
        return 1;
    }

    private static <T> int allreduce(Communicator comm, Case<T> c, long seed) {
        T mine = c.value(seed, comm.rank(), 7);
        T got = comm.allreduce(mine, c.op(), c.type());
        assertEncodedEquals(c.type(), c.expectedFold().apply(all(comm, c, seed, 7)), got,
                "allreduce of " + c.type() + " at " + comm.rank());
        assertEncodedEquals(c.type(), c.value(seed, comm.rank(), 7), mine, "the value given is not changed");
        return 1;
    }

    private static <T> List<T> all(Communicator comm, Case<T> c, long seed, int n) {
        List<T> out = new ArrayList<>();
        for (int r = 0; r < comm.size(); r++) {
            out.add(c.value(seed, r, n));
        }
        return out;
    }

    /** Bit-exact: the encodings are equal. */
    private static <T> void assertEncodedEquals(ArrayType<T> type, T expected, T actual, String what) {
        assertArrayEquals(ArrayTypes.toBytes(type, expected), ArrayTypes.toBytes(type, actual), what);
    }

    @Test
    void aProgramAllreducesADoubleArrayAndAMatrixWithoutWritingSerialization() {
        List<TestJob.Outcome<String>> out = new TestJob(3).run(LIMIT, comm -> {
            int r = comm.rank();
            double[] sums = comm.allreduce(new double[] {r, 1.5}, ReduceOp.SUM, ArrayTypes.F64);
            Matrix2D total = comm.allreduce(Matrix2D.of(2, 2, r, 10 * r, 100 * r, 1), ReduceOp.SUM,
                    ArrayTypes.MATRIX_2D);
            Matrix2D largest = comm.allreduce(Matrix2D.of(1, 2, r, -r), ReduceOp.MAX, ArrayTypes.MATRIX_2D);
            assertArrayEquals(new double[] {3, 4.5}, sums);
            assertEquals(Matrix2D.of(2, 2, 3, 30, 300, 3), total);
            assertEquals(Matrix2D.of(1, 2, 2, 0), largest);
            return "ok";
        });
        out.forEach(o -> assertEquals("ok", o.get()));
    }

    // ---- refusals ---------------------------------------------------------------------------------------------

    @Test
    void matricesOfDifferentShapesEndTheAllreduceWithH1618AtTheRootAndH1612AtTheOther() {
        // 2x3 and 3x2 encode to the same length: only the shape tells them apart.
        List<String> out = run(2, rt -> codes(rt,
                () -> rt.allreduce(rt.rank() == 0 ? Matrix2D.of(2, 3, new double[6]) : Matrix2D.of(3, 2,
                        new double[6]), ReduceOp.SUM, ArrayTypes.MATRIX_2D),
                rt::barrier));
        assertCodes(out, "H1618", "H1612");
        String refusal = "contribution of rank 1 refused: matrix shapes differ: 2x3 and 3x2";
        assertTrue(out.get(0).contains("H1618 invalid argument: rank 0, allreduce #1: " + refusal), out.get(0));
        assertTrue(out.get(1).contains("aborted the job (reason 3, code H1618)") && out.get(1).contains(refusal),
                out.get(1));
    }

    @Test
    void aMatrixOfAnotherShapeEndsTheReduceAtAnyRootWithH1618ThereAndH1612OrH1613Elsewhere() {
        List<String> out = run(3, rt -> codes(rt,
                () -> rt.reduce(1, Matrix2D.of(2, rt.rank() == 2 ? 4 : 3, new double[rt.rank() == 2 ? 8 : 6]),
                        ReduceOp.SUM, ArrayTypes.MATRIX_2D),
                rt::barrier));
        assertCodes(out, BYSTANDER, "H1618", BYSTANDER);
        assertTrue(out.get(1).contains("contribution of rank 2 refused: matrix shapes differ: 2x3 and 2x4"),
                out.get(1));
        assertTrue(out.get(0).contains("aborted the job (reason 3, code H1618)")
                || out.get(2).contains("aborted the job (reason 3, code H1618)"), out.toString());
    }

    @Test
    void pairsTheTableDoesNotAllowAreRefusedOnEveryRankBeforeAnythingIsSentAndTheJobGoesOn() {
        Matrix2D m = Matrix2D.of(1, 1, 2);
        List<String> out = run(3, rt -> codes(rt,
                () -> rt.allreduce(m, ReduceOp.BAND, ArrayTypes.MATRIX_2D),
                () -> rt.reduce(2, m, ReduceOp.LXOR, ArrayTypes.MATRIX_2D),
                () -> rt.allreduce(new double[] {1}, ReduceOp.BOR, ArrayTypes.F64),
                () -> rt.allreduce(new byte[] {1}, ReduceOp.SUM, ArrayTypes.BYTES),
                () -> assertEquals(Matrix2D.of(1, 1, 6), rt.allreduce(m, ReduceOp.SUM, ArrayTypes.MATRIX_2D))));
        assertCodes(out, "H1618 H1618 H1618 H1618 ok", "H1618 H1618 H1618 H1618 ok", "H1618 H1618 H1618 H1618 ok");
    }

    /** Only the root holds a bcast value: refused there, it ends the job, as bcast data over the limit does. */
    @Test
    void aValueTheRootCannotEncodeEndsTheJobWithTheEncodingsReasonAtTheRoot() {
        double[] tooLarge = new double[Communicator.MAX_COLLECTIVE_DATA / Double.BYTES + 1];
        List<String> out = run(2, rt -> codes(rt,
                () -> rt.bcast(0, rt.rank() == 0 ? tooLarge : null, ArrayTypes.F64),
                () -> rt.bcast(0, new double[] {1}, ArrayTypes.F64)));
        assertCodes(out, "H1618", "H1612");
        assertTrue(out.get(0).contains("value: encoded length=16777208, maximum 16777200"), out.get(0));
        assertTrue(out.get(1).contains("aborted the job (reason 4, code H1618)"), out.get(1));
    }

    @Test
    void sendAndRecvCarryEncodableValuesAndAMessageThatDoesNotDecodeIsRefusedWithH1618() {
        List<String> out = run(2, rt -> {
            if (rt.rank() == 0) {
                rt.send(1, 1, Matrix2D.of(1, 2, 0.5, -0.5), ArrayTypes.MATRIX_2D);
                rt.send(1, 2, new int[] {-1, 7}, ArrayTypes.U32);
                rt.send(1, 3, new byte[] {1, 2, 3});
                return codes(rt, () -> rt.send(1, 4, null, ArrayTypes.F64), rt::barrier);
            }
            assertEquals(Matrix2D.of(1, 2, 0.5, -0.5), rt.recv(0, 1, ArrayTypes.MATRIX_2D));
            assertArrayEquals(new int[] {-1, 7}, rt.recv(0, 2, ArrayTypes.U32));
            return codes(rt, () -> rt.recv(0, 3, ArrayTypes.MATRIX_2D), rt::barrier);
        });
        assertCodes(out, "H1618 ok", "H1618 ok");
    }

    @Test
    void aMessageThatDoesNotDecodeNamesItsSourceTagAndFault() {
        List<String> out = run(2, rt -> {
            if (rt.rank() == 0) {
                rt.send(1, 3, new byte[] {1, 2, 3});
                return "ok";
            }
            return message(() -> rt.recv(0, 3, ArrayTypes.MATRIX_2D));
        });
        assertTrue(out.get(1).startsWith("H1618 invalid argument: message from rank 0 with tag 3: matrix cut: 3 bytes,"
                + " header needs 8"), out.get(1));
    }

    // ---- helpers ----------------------------------------------------------------------------------------------

    private static List<String> run(int size, Function<RankRuntime, String> body) {
        return new TestJob(size).endings(LIMIT, body);
    }

    /** "ok" or the H code and {message} of each call, stopping after the first failure that ended the job. */
    private static String codes(RankRuntime rt, Runnable... calls) {
        List<String> out = new ArrayList<>();
        for (Runnable call : calls) {
            try {
                call.run();
                out.add("ok");
            } catch (SperliException e) {
                // The message in braces, for the tests that check it; assertCodes drops it.
                out.add(e.code().name() + " {" + e.getMessage() + "}");
                if (rt.failure() != null) {
                    break;
                }
            }
        }
        return String.join(" ", out);
    }

    private static String message(Runnable call) {
        try {
            call.run();
            return "ok";
        } catch (SperliException e) {
            return e.getMessage();
        }
    }

    private static void assertCodes(List<String> outcomes, String... patterns) {
        for (int r = 0; r < patterns.length; r++) {
            String codes = outcomes.get(r).substring(0, outcomes.get(r).indexOf(" | "))
                    .replaceAll(" \\{[^}]*}", "");
            assertTrue(codes.matches(patterns[r]), "rank " + r + ": " + outcomes.get(r) + ", expected "
                    + patterns[r] + "; all: " + outcomes);
        }
    }
}
