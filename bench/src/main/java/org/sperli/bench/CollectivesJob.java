package org.sperli.bench;

import java.util.Locale;
import org.sperli.Communicator;
import org.sperli.SperliJob;

/**
 * One case of {@link CollectivesBench} as a job, for ranks that are processes: {@code CASE ROUNDS SHORTEST_WARM_UP_NS
 * LONGEST_WARM_UP_NS}. Every rank runs the case's warm-up and timed rounds; rank 0 prints one line {@value #RESULT}
 * followed by the median ms per call and the seconds of warm-up.
 */
public final class CollectivesJob implements SperliJob {
    /** The start of rank 0's result line. */
    static final String RESULT = "collectives-result ";

    @Override
    public void run(Communicator comm, String[] args) {
        CollectivesBench.Case c = CollectivesBench.cases().get(Integer.parseInt(args[0]));
        CollectivesBench.Timed timed = CollectivesBench.msPerCall(comm, c, Integer.parseInt(args[1]),
                new WarmUp(Long.parseLong(args[2]), Long.parseLong(args[3])));
        if (comm.rank() == 0) {
            System.out.println(RESULT + String.format(Locale.ROOT, "%.6f %.1f", timed.medianMs(), timed.warmUpS()));
        }
    }
}
