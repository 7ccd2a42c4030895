package org.sperli.runtime;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.sperli.ElementType;
import org.sperli.ReduceOp;
import org.sperli.SperliException;
import org.sperli.collective.Combine;
import org.sperli.protocol.frame.FrameType;
import org.sperli.protocol.payload.CollectiveHeader;

/** Shared by the collective tests: contributions every rank can recompute, expected folds, codes, forged frames. */
final class CollectiveFixture {
    /** Bound of one job; the whole of a test class stays far below it. */
    static final Duration LIMIT = Duration.ofSeconds(60);

    private CollectiveFixture() {
    }

    /** Bytes determined by (seed, rank, length), so any rank can compute any other rank's contribution. */
    static byte[] bytes(long seed, int rank, int length) {
        byte[] out = new byte[length];
        SplittableRandom random = new SplittableRandom(seed * 1_000_003L + rank);
        for (int i = 0; i < length; i++) {
            out[i] = (byte) random.nextInt(256);
        }
        return out;
    }

    /** ((c0 op c1) op c2) ... over the contributions of ranks 0..size-1, computed locally with {@link Combine}. */
    static byte[] fold(List<byte[]> contributions, ElementType type, ReduceOp op) {
        byte[] acc = contributions.get(0).clone();
        for (int r = 1; r < contributions.size(); r++) {
            Combine.into(acc, contributions.get(r), type, op);
        }
        return acc;
    }

    static List<byte[]> contributions(long seed, int size, int length) {
        List<byte[]> all = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            all.add(bytes(seed, r, length));
        }
        return all;
    }

    /**
     * Runs {@code calls} in order and gives "ok" or the H code of each, stopping after the first failure that ended
     * the job: "H1618 ok H1612".
     */
    static String codes(RankRuntime rt, Runnable... calls) {
        List<String> out = new ArrayList<>();
        for (Runnable call : calls) {
            try {
                call.run();
                out.add("ok");
            } catch (SperliException e) {
                out.add(e.code().name());
                if (rt.failure() != null) {
                    break;
                }
            }
        }
        return String.join(" ", out);
    }

    /** The message of the exception a call throws, or "ok". */
    static String message(Runnable call) {
        try {
            call.run();
            return "ok";
        } catch (SperliException e) {
            return e.getMessage();
        }
    }

    /** Sends a COLLECTIVE frame with any header and data, as a faulty or hostile peer would. */
    static void forge(RankRuntime rt, int dest, CollectiveHeader header, byte[] data) {
        ByteBuffer payload = ByteBuffer.allocate(CollectiveHeader.LENGTH + data.length);
        header.write(payload);
        payload.put(data).flip();
        TestJob.parts(rt).frames().send(dest, FrameType.COLLECTIVE, 0, 0, payload).await();
    }

    /** Like {@link #forge} with a raw 16-byte header, for headers the codec refuses to write. */
    static void forgeRaw(RankRuntime rt, int dest, byte[] rawHeaderAndData) {
        TestJob.parts(rt).frames().send(dest, FrameType.COLLECTIVE, 0, 0, ByteBuffer.wrap(rawHeaderAndData)).await();
    }
}
