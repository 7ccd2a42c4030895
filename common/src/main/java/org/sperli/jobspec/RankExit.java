package org.sperli.jobspec;

import org.sperli.ErrorCode;
import org.sperli.SperliException;

/**
 * The exit statuses of a rank process (tables section 10, "Ranks and the launcher"; protocol section 11 gives every H
 * code its status): the contract between a rank and its launcher, which judges ranks by these numbers alone. So every
 * implementation of a rank must use them; rankd decides its status here, and the launcher's words for a status are
 * {@link #meaning}. The launcher's own statuses ({@code ExitCodes}) are another table for another reader, the shell
 * that started it, and look like this one only in form.
 *
 * <pre>
 * 0  the program completed (BYE sent)
 * 1  internal error: a bug in rankd, not in the job or its peers (not in the tables; printed with a stack trace)
 * 2  description or jar refused (H1615, H1616), or a command line rankd cannot use
 * 3  the program failed (ABORT reason 7 sent), an uncaught H1618 included
 * 4  aborted by a peer (H1612)
 * 5  a peer was lost (H1613)
 * 6  a frame, handshake or HELLO refused (H1610, H1611, H1614)
 * 7  a collective frame that does not answer the call (H1617), checkpoint or resume failed (H1619-H1624)
 * 8  stopped by the operator (SIGTERM or Ctrl-C), or its launcher is gone (end of stdin); ABORT reason 8 sent
 * </pre>
 */
public final class RankExit {
    public static final int COMPLETED = 0;
    public static final int INTERNAL_ERROR = 1;
    public static final int REFUSED = 2;
    public static final int PROGRAM_FAILED = 3;
    public static final int ABORTED_BY_PEER = 4;
    public static final int PEER_LOST = 5;
    public static final int PROTOCOL_REFUSED = 6;
    public static final int CHECKPOINT_FAILED = 7;
    public static final int OPERATOR_STOP = 8;

    private RankExit() {
    }

    /**
     * The status of a rank whose job ended with {@code code}, whether the runtime raised it or the program let it
     * escape. H1618 is a call the program made with a bad argument; left uncaught, it is the program's failure (3).
     * Every H1617 is 7, the collective's as well as the checkpoint path's (protocol section 11, which gives every code
     * its status); the code's line on stderr tells them apart, and the launcher names the code's meaning.
     */
    public static int forCode(ErrorCode code) {
        return switch (code) {
            case H1610, H1611, H1614 -> PROTOCOL_REFUSED;
            case H1612 -> ABORTED_BY_PEER;
            case H1613 -> PEER_LOST;
            case H1615, H1616 -> REFUSED;
            case H1618 -> PROGRAM_FAILED;
            case H1617, H1619, H1620, H1621, H1622, H1623, H1624 -> CHECKPOINT_FAILED;
        };
    }

    /**
     * The status of a rank whose program let {@code thrown} escape while the job itself had not failed (the runtime
     * held no failure, so this rank sent ABORT reason 7). Any throwable that is not a SperliException is the
     * program's failure. A SperliException keeps the status of its code, so that an H1613 from a peer that left
     * with BYE during a wait still reads "a peer was lost"; but H1615 and H1616 mean a refused start, which a
     * running program cannot be, so those are the program's failure too.
     */
    public static int forProgramThrowable(Throwable thrown) {
        if (!(thrown instanceof SperliException e)) {
            return PROGRAM_FAILED;
        }
        int status = forCode(e.code());
        return status == REFUSED ? PROGRAM_FAILED : status;
    }

    /**
     * What {@code status} means in the launcher's words, for example "a peer was lost"; null for a status outside
     * the contract (0 to 8).
     */
    public static String meaning(int status) {
        return switch (status) {
            case COMPLETED -> "completed";
            case INTERNAL_ERROR -> "internal error in the rank";
            case REFUSED -> "description or jar refused";
            case PROGRAM_FAILED -> "the program failed";
            case ABORTED_BY_PEER -> "aborted by a peer";
            case PEER_LOST -> "a peer was lost";
            case PROTOCOL_REFUSED -> "frame, handshake or HELLO refused";
            case CHECKPOINT_FAILED -> "collective mismatch, or checkpoint or resume failed";
            case OPERATOR_STOP -> "stopped by the operator";
            default -> null;
        };
    }
}
