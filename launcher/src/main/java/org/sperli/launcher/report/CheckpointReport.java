package org.sperli.launcher.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.PrintWriter;
import java.util.Locale;
import org.sperli.ErrorCode;
import org.sperli.checkpoint.inspect.Inspection;
import org.sperli.checkpoint.inspect.Inspection.Commit;
import org.sperli.checkpoint.inspect.Inspection.Entry;
import org.sperli.checkpoint.inspect.Inspection.Epoch;
import org.sperli.checkpoint.inspect.Inspection.EpochVerdict;
import org.sperli.checkpoint.inspect.Inspection.FileStatus;
import org.sperli.checkpoint.inspect.Inspection.Job;
import org.sperli.checkpoint.inspect.Inspection.Rank;
import org.sperli.checkpoint.inspect.Inspection.RankFile;

/**
 * The two renderings of an {@link Inspection}, both from the same records: {@link #json} (Jackson, every field) for
 * tools and {@link #table} for people. The table shows one line per file and one {@code =>} line per epoch with its
 * verdict and H code, a {@code *} before the epoch a resume picks, and one {@code verdict:} line per job.
 *
 * <pre>
 * job 5d0c41a0e6f14c6d8a2b9e3f70c1d2e4  size 2 (from the COMMIT of epoch 2)  public key: job.pub
 *   epoch  file                      bytes  verdict
 *   3      COMMIT                        -  missing
 *   3      rank-0.ckpt                1680  ok: header and state hash hold
 *   3      =&gt; NO_COMMIT  no COMMIT: the checkpoint did not finish, and an epoch without one does not count
 *   2      COMMIT                     2586  ok: signature verified
 *   2      rank-0.ckpt                1680  ok: matches the COMMIT
 * * 2      =&gt; RESUME  picked: every rank loads
 *   verdict: RESUMABLE, epoch 2: a resume picks epoch 2 and loads every rank
 * </pre>
 */
public final class CheckpointReport {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final String ROW = "  %-6s %-24s %6s  %s%n";

    private CheckpointReport() {
    }

    /** Every field of the inspection as indented JSON. */
    public static String json(Inspection inspection) {
        try {
            return JSON.writeValueAsString(inspection);
        } catch (JsonProcessingException e) {
            // Records of strings, numbers and enums always serialise; this would be a bug in the records.
            throw new IllegalStateException("inspection not serialisable: " + e.getOriginalMessage(), e);
        }
    }

    /** The human table; {@code verbose} adds every hash. */
    public static void table(Inspection inspection, PrintWriter out, boolean verbose) {
        out.println("checkpoint directory " + inspection.directory());
        for (Entry e : inspection.ignored()) {
            out.println("  ignored " + e.name() + ": " + e.note());
        }
        for (Job job : inspection.jobs()) {
            out.println();
            job(job, out, verbose);
        }
        out.flush();
    }

    private static void job(Job job, PrintWriter out, boolean verbose) {
        out.println("job " + job.jobId() + "  size " + (job.size() == null ? "unknown (no COMMIT holds; --size N"
                + " checks it)" : job.size() + " (from " + job.sizeSource() + ")") + "  public key: "
                + (job.publicKey() == null ? "none (signatures not checked; --public-key FILE)" : job.publicKey()
                + (job.keyFromDirectory() ? " (from this directory itself, not independent of the COMMITs)" : "")));
        for (Entry e : job.ignored()) {
            out.println("  ignored " + e.name() + ": " + e.note());
        }
        out.printf(Locale.ROOT, ROW, "epoch", "file", "bytes", "verdict");
        for (Epoch epoch : job.epochs()) {
            epoch(epoch, out, verbose);
        }
        out.println("  verdict: " + job.verdict() + (job.code() == null ? "" : " " + job.code())
                + (job.resumeEpoch() == null ? "" : ", epoch " + job.resumeEpoch()) + ": " + job.reason());
    }

    private static void epoch(Epoch epoch, PrintWriter out, boolean verbose) {
        String number = Long.toString(epoch.epoch());
        Commit c = epoch.commit();
        out.printf(Locale.ROOT, ROW, number, "COMMIT", bytes(c.bytes()), said(c.status(), c.code(), c.reason()));
        for (Rank rank : epoch.ranks()) {
            file(number, rank.file(), out, verbose);
            if (rank.buddy() != null) {
                file(number, rank.buddy(), out, verbose);
            }
        }
        for (Entry e : epoch.ignored()) {
            out.printf(Locale.ROOT, ROW, number, e.name(), "", "ignored: " + e.note());
        }
        boolean picked = epoch.verdict() == EpochVerdict.RESUME || epoch.verdict() == EpochVerdict.RESUME_UNVERIFIED;
        out.printf(Locale.ROOT, "%s%-6s => %s%s  %s%n", picked ? "* " : "  ", number, epoch.verdict(),
                epoch.code() == null ? "" : " " + epoch.code(), epoch.reason());
    }

    private static void file(String epoch, RankFile f, PrintWriter out, boolean verbose) {
        out.printf(Locale.ROOT, ROW, epoch, f.name(), bytes(f.bytes()), said(f.status(), f.code(), f.reason()));
        if (verbose && f.headerStateSha256() != null) {
            out.println(" ".repeat(10) + "state " + f.stateLength() + " bytes, SHA-256 in the header "
                    + f.headerStateSha256());
        }
        if (verbose && f.fileSha256() != null) {
            out.println(" ".repeat(10) + "file SHA-256 " + f.fileSha256());
        }
        if (verbose && f.commitSha256() != null) {
            out.println(" ".repeat(10) + "COMMIT entry " + f.commitSha256());
        }
    }

    private static String said(FileStatus status, ErrorCode code, String reason) {
        return switch (status) {
            case MISSING -> "missing";
            case REFUSED -> code + " " + reason;
            default -> status.name().toLowerCase(Locale.ROOT) + ": " + reason;
        };
    }

    private static String bytes(Long n) {
        return n == null ? "-" : Long.toString(n);
    }
}
