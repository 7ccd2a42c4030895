package org.sperli.launcher.command;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.sperli.checkpoint.inspect.Inspection;
import org.sperli.checkpoint.inspect.Inspector;
import org.sperli.crypto.CompositeSig;
import org.sperli.launcher.exit.ExitCodes;
import org.sperli.launcher.exit.LauncherException;
import org.sperli.launcher.report.CheckpointReport;
import org.sperli.protocol.JobId;
import org.sperli.protocol.Limits;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sperli inspect-checkpoint DIR}: what a resume would make of a checkpoint directory. The checks live in
 * {@link Inspector} (common), the renderings in {@link CheckpointReport}; this class reads the options, the public key
 * file, and maps the outcome to an exit status.
 */
@Command(name = "inspect-checkpoint", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Lists the jobs, epochs, rank files, buddy copies and COMMITs in a checkpoint directory"
                    + " (<DIR>/<job id>/<epoch>/) with sizes and verdicts: header fields, state SHA-256 against the"
                    + " header, file length, the COMMIT layout and signature, each file's hash against its COMMIT"
                    + " entry. Marks with * the epoch a resume would pick (the newest epoch whose COMMIT holds,"
                    + " every rank loading from its file or its buddy copy) and says with an H code why any other"
                    + " epoch would not be used (H1619 wrong file, H1620 hash, H1621 COMMIT or signature, H1622"
                    + " cannot be loaded, H1623 other size).",
            "Nothing is written and no symbolic link below DIR is followed. DIR is one host's view: ranks whose"
                    + " files live on other hosts show as missing."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            " 0:an epoch is resumable, its COMMIT signature verified",
            " 1:nothing is resumable (no COMMIT holds, the picked epoch cannot be loaded, or no COMMIT at all)",
            " 2:usage: DIR missing or not a checkpoint directory, bad option or key file",
            " 3:an epoch is resumable only if its COMMIT signature holds: no job public key was known",
            " 5:internal error"})
public final class InspectCheckpointCommand implements Callable<Integer> {
    /** Nothing in DIR would be resumed. */
    public static final int NOTHING_RESUMABLE = 1;
    /** Resumable only if the unverified COMMIT signature holds. */
    public static final int RESUMABLE_UNVERIFIED = 3;

    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "DIR", description = "The checkpoint directory (--checkpoint-dir of run).")
    private Path dir;

    @Option(names = "--job", paramLabel = "HEX", description = "Only this job (32 lower-case hex digits).")
    private String job;

    @Option(names = "--public-key", paramLabel = "FILE",
            description = "The job public key, 1344 raw bytes, used instead of the job.pub rank 0 stores beside the"
                    + " checkpoints (which anyone able to write DIR could replace). Applies to every job listed:"
                    + " use it with --job when DIR holds several jobs.")
    private Path publicKey;

    @Option(names = "--size", paramLabel = "N",
            description = "The job's size, 1..4096 (default: the size of the newest COMMIT that holds).")
    private Integer size;

    @Option(names = "--json", description = "Print the report as JSON (every field the table shows, and the hashes).")
    private boolean json;

    @Option(names = {"-v", "--verbose"}, description = "Show every hash in the table, and stack traces on errors.")
    private boolean verbose;

    @Override
    public Integer call() throws IOException {
        JobId jobId = null;
        if (job != null) {
            try {
                jobId = JobId.parseHex(job);
            } catch (IllegalArgumentException e) {
                throw LauncherException.usage("--job " + job + ": expected 32 lower-case hex digits");
            }
        }
        if (size != null && (size < Limits.MIN_SIZE || size > Limits.MAX_SIZE)) {
            throw LauncherException.usage("--size " + size + " is not in " + Limits.MIN_SIZE + ".." + Limits.MAX_SIZE);
        }
        byte[] key = publicKey == null ? null : readPublicKey(publicKey);
        Inspection inspection;
        try {
            inspection = Inspector.inspect(dir, new Inspector.Options(jobId, key,
                    key == null ? null : "--public-key " + publicKey, size));
        } catch (Inspector.NotACheckpointDirectory e) {
            throw LauncherException.usage(e.getMessage());
        } catch (IOException e) {
            throw LauncherException.usage(dir + " cannot be read: " + e);
        }
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(CheckpointReport.json(inspection));
            out.flush();
        } else {
            CheckpointReport.table(inspection, out, verbose);
        }
        if (inspection.anyResumable()) {
            return ExitCodes.COMPLETED;
        }
        return inspection.anyResumableUnverified() ? RESUMABLE_UNVERIFIED : NOTHING_RESUMABLE;
    }

    /** Exactly 1344 bytes from a regular file; read no further than that. */
    private static byte[] readPublicKey(Path file) throws IOException {
        ByteBuffer key = ByteBuffer.allocate(CompositeSig.PUBLIC_KEY_LENGTH + 1);
        try (SeekableByteChannel in = Files.newByteChannel(file)) {
            while (key.hasRemaining() && in.read(key) >= 0) {
                // fills up to one byte more than a key, to tell a longer file
            }
        } catch (NoSuchFileException e) {
            throw LauncherException.usage("--public-key " + file + " does not exist");
        } catch (IOException e) {
            throw LauncherException.usage("--public-key " + file + " cannot be read: " + e.getMessage());
        }
        if (key.position() != CompositeSig.PUBLIC_KEY_LENGTH) {
            throw LauncherException.usage("--public-key " + file + ": " + (key.hasRemaining() ? key.position()
                    : "more than " + CompositeSig.PUBLIC_KEY_LENGTH) + " bytes, a job public key has "
                    + CompositeSig.PUBLIC_KEY_LENGTH + " raw bytes");
        }
        byte[] out = new byte[CompositeSig.PUBLIC_KEY_LENGTH];
        key.flip().get(out);
        return out;
    }
}
