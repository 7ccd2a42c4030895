package org.sperli.bench;

import org.sperli.ElementType;
import org.sperli.ReduceOp;
import org.sperli.protocol.payload.CollectiveHeader;

/**
 * The collectives of {@link ScaleJob} in call order, which the peer farm must know in advance because it answers as
 * the non-root ranks of the star (protocol section 7.4): sequence 1 a barrier once all are connected, sequence 2 a
 * barrier after the idle window, then {@code rounds} timed barriers and {@code rounds} timed 8-byte allreduces (one
 * f64, summed). A farm rank sends its contribution to call s + 1 as soon as the root's answer to call s arrives, as a
 * rank that loops over the calls would.
 */
record ScaleSchedule(int rounds) {
    /** The untimed barriers before the timed ones: all connected, then the idle window's end. */
    static final int LEADING_BARRIERS = 2;
    /** The allreduce's bytes: one f64. */
    static final int ALLREDUCE_BYTES = Double.BYTES;

    ScaleSchedule {
        if (rounds < 1 || rounds > 100_000) {
            throw new IllegalArgumentException("rounds " + rounds + " outside 1..100000");
        }
    }

    /** The number of collective calls of the job. */
    long calls() {
        return LEADING_BARRIERS + 2L * rounds;
    }

    /** Whether call {@code sequence} (from 1) is an allreduce; the others are barriers. */
    boolean isAllreduce(long sequence) {
        return sequence > LEADING_BARRIERS + rounds;
    }

    /** A non-root rank's contribution header for call {@code sequence}, as the runtime writes it. */
    CollectiveHeader towardRoot(long sequence) {
        if (isAllreduce(sequence)) {
            return new CollectiveHeader(CollectiveHeader.ALLREDUCE, ElementType.F64.code(), ReduceOp.SUM.code(),
                    CollectiveHeader.TOWARD_ROOT, 0, sequence);
        }
        return new CollectiveHeader(CollectiveHeader.BARRIER, 0, 0, CollectiveHeader.TOWARD_ROOT, 0, sequence);
    }
}
