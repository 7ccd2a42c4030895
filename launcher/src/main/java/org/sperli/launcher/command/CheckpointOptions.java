package org.sperli.launcher.command;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Where the ranks of a run keep their checkpoints, and how long a checkpoint or resume waits for a peer. */
public final class CheckpointOptions {
    @Option(names = "--checkpoint-dir", paramLabel = "DIR",
            description = "Checkpoint directory of every rank, the same absolute path on each host's own disk"
                    + " (a relative DIR is taken from here). Jobs that checkpoint resume from it on a restart;"
                    + " sperli inspect-checkpoint DIR shows what a resume would pick.")
    Path dirOrNull;

    @Option(names = "--checkpoint-wait", paramLabel = "SECONDS",
            description = "How long a rank in a checkpoint or resume waits for a peer's next frame before it ends the"
                    + " job with H1613 (rank 0; the others wait twice as long). Default: 600, enough for ranks that"
                    + " reach a checkpoint unevenly; raise it when one may come much later than another.")
    Long waitSecondsOrNull;
}
