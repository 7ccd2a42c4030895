package org.sperli.bench;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.sperli.control.ControlFrame;
import org.sperli.control.ControlFrameReader;
import org.sperli.control.ControlFrames;
import org.sperli.jobspec.RankPhase;
import org.sperli.launcher.job.AgentChannel;

/**
 * A stand-in for the host agent of one host (docs/sperli-agent.md): the launcher's side of the control stream is real
 * ({@code AgentLink}), this side answers as an agent whose ranks ran and ended, and starts no process. It says READY
 * at once; a START is answered with STARTED and the phase lines up to {@code running}; once the {@link StandInJob}
 * has seen every rank started, each rank prints its output lines, {@code done} and {@code closed}, and EXITED 0. A
 * SIGNAL ends the rank with 128 + the signal, SHUTDOWN with BYE and the stream's end.
 *
 * <p>It needs no thread: frames from the launcher are decoded as the launcher writes them (the project's
 * {@link ControlFrameReader}, which checks them as an agent does), and the answers go into a {@link BytePipe} that the
 * launcher's reader drains.
 */
final class StandInAgent implements AgentChannel {
    private static final byte[] RUNNING = phases(RankPhase.STARTED, RankPhase.LISTENING, RankPhase.CONNECTED,
            RankPhase.RUNNING);
    private static final byte[] ENDED = phases(RankPhase.DONE, RankPhase.CLOSED);
    private static final int SIGNALLED = 128;

    private final String host;
    private final long pid;
    private final StandInJob job;
    private final BytePipe fromAgent = new BytePipe();
    private final Intake toAgent = new Intake();

    StandInAgent(String host, long pid, StandInJob job) throws IOException {
        this.host = host;
        this.pid = pid;
        this.job = job;
        ControlFrames.writeReady(fromAgent.out(), pid);
    }

    @Override
    public InputStream fromAgent() {
        return fromAgent.in();
    }

    @Override
    public OutputStream toAgent() {
        return toAgent;
    }

    @Override
    public String where() {
        return "stand-in " + host;
    }

    @Override
    public void close() {
        fromAgent.close();
    }

    /** The rest of a rank's life, once every rank of the job has started. */
    synchronized void end(ControlFrame.RankRef ref, byte[] output) throws IOException {
        OutputStream out = fromAgent.out();
        ControlFrames.writeOutput(out, ref.rank(), ref.incarnation(), ControlFrames.STDOUT, output, 0, output.length);
        ControlFrames.writeOutput(out, ref.rank(), ref.incarnation(), ControlFrames.STDERR, ENDED, 0, ENDED.length);
        ControlFrames.writeExited(out, ref.rank(), ref.incarnation(), 0);
    }

    private synchronized void act(ControlFrame frame) throws IOException {
        OutputStream out = fromAgent.out();
        if (frame instanceof ControlFrame.Start start) {
            ControlFrame.RankRef ref = start.ref();
            ControlFrames.writeStarted(out, ref.rank(), ref.incarnation(), pid + 1 + ref.rank());
            ControlFrames.writeOutput(out, ref.rank(), ref.incarnation(), ControlFrames.STDERR, RUNNING, 0,
                    RUNNING.length);
            start.wipe();
            job.started(this, ref);
        } else if (frame instanceof ControlFrame.Signal signal) {
            if (job.stop(signal.ref())) {
                ControlFrames.writeExited(out, signal.ref().rank(), signal.ref().incarnation(),
                        SIGNALLED + signal.signal());
            }
        } else if (frame instanceof ControlFrame.Shutdown) {
            ControlFrames.writeBye(out);
            fromAgent.close();
        } else {
            throw new IOException("stand-in agent on " + host + ": unexpected " + frame);
        }
    }

    private static byte[] phases(RankPhase... phases) {
        StringBuilder s = new StringBuilder();
        for (RankPhase p : phases) {
            s.append(RankPhase.PREFIX).append(p.word()).append('\n');
        }
        return s.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The agent's standard input: gathers bytes until a whole frame is in, then acts on it. */
    private final class Intake extends OutputStream {
        private byte[] buffer = new byte[64 * 1024];
        private int filled;

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) throws IOException {
            if (filled + len > buffer.length) {
                byte[] next = Arrays.copyOf(buffer, Math.max(2 * buffer.length, filled + len));
                Arrays.fill(buffer, (byte) 0);
                buffer = next;
            }
            System.arraycopy(b, off, buffer, filled, len);
            filled += len;
            while (filled >= ControlFrames.LENGTH_FIELD) {
                long length = Integer.toUnsignedLong(ByteBuffer.wrap(buffer, 0, ControlFrames.LENGTH_FIELD)
                        .order(ByteOrder.LITTLE_ENDIAN).getInt());
                if (length > ControlFrames.maxLength(true)) {
                    throw new IOException("stand-in agent on " + host + ": frame length " + length);
                }
                int whole = ControlFrames.LENGTH_FIELD + (int) length;
                if (filled < whole) {
                    return;
                }
                ControlFrame frame = new ControlFrameReader(new ByteArrayInputStream(buffer, 0, whole), true).next();
                // A START carries a description, a secret: nothing of it stays behind here.
                System.arraycopy(buffer, whole, buffer, 0, filled - whole);
                Arrays.fill(buffer, filled - whole, filled, (byte) 0);
                filled -= whole;
                if (frame instanceof ControlFrame.Start) {
                    job.startReceived(whole);
                }
                act(frame);
            }
        }

        @Override
        public void close() {
            fromAgent.close();
        }
    }
}
