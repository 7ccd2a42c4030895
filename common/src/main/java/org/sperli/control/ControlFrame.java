package org.sperli.control;

import java.util.Arrays;
import java.util.List;

/**
 * One decoded frame of the control stream ({@link ControlFrames} has the layouts). Launcher to agent: {@link Start},
 * {@link Signal}, {@link Shutdown}; agent to launcher: {@link Ready}, {@link Started}, {@link Output},
 * {@link Exited}, {@link Failed}, {@link Bye}.
 */
public sealed interface ControlFrame permits ControlFrame.FromLauncher, ControlFrame.FromAgent {
    /** Whether a launcher (false: an agent) sends frames of this kind. */
    boolean fromLauncher();

    /** A frame a launcher sends. */
    sealed interface FromLauncher extends ControlFrame permits Start, Signal, Shutdown {
        @Override
        default boolean fromLauncher() {
            return true;
        }
    }

    /** A frame an agent sends. */
    sealed interface FromAgent extends ControlFrame permits Ready, Started, Output, Exited, Failed, Bye {
        @Override
        default boolean fromLauncher() {
            return false;
        }
    }

    /** Where a frame about one rank of one incarnation belongs. */
    record RankRef(int rank, long incarnation) {
        @Override
        public String toString() {
            return "rank " + rank + " (incarnation " + incarnation + ")";
        }
    }

    /**
     * Start a rank: {@code argv} run with {@code env} changes ({@code NAME=VALUE} sets, a bare {@code NAME} removes),
     * the description line (its line feed included) written to its standard input. {@link #wipe} zeroes the line.
     */
    record Start(RankRef ref, List<String> argv, List<String> env, byte[] description) implements FromLauncher {
        public Start {
            argv = List.copyOf(argv);
            env = List.copyOf(env);
        }

        public void wipe() {
            Arrays.fill(description, (byte) 0);
        }

        @Override
        public String toString() {
            return "Start[" + ref + ", " + argv.size() + " words, description redacted]";
        }
    }

    /** Send {@code signal} ({@link ControlFrames#SIGTERM} or {@link ControlFrames#SIGKILL}) to a rank. */
    record Signal(RankRef ref, int signal) implements FromLauncher {
    }

    /** End every rank (SIGTERM, then SIGKILL after the grace), report each, say BYE and exit 0. */
    record Shutdown() implements FromLauncher {
    }

    /** The agent runs: its control stream version and process id. */
    record Ready(int version, long pid) implements FromAgent {
    }

    /** A rank's process runs with {@code pid}; its description is written to its standard input. */
    record Started(RankRef ref, long pid) implements FromAgent {
    }

    /** Bytes a rank wrote to {@code stream} ({@link ControlFrames#STDOUT} or {@link ControlFrames#STDERR}). */
    record Output(RankRef ref, int stream, byte[] data) implements FromAgent {
    }

    /** A rank ended with {@code status} (128 + n when signal n ended it), its output sent before this frame. */
    record Exited(RankRef ref, int status) implements FromAgent {
    }

    /** A rank could not be started; {@code reason} says why in one line. */
    record Failed(RankRef ref, String reason) implements FromAgent {
    }

    /** Every rank of the agent has ended and been reported; the agent exits after this frame. */
    record Bye() implements FromAgent {
    }
}
