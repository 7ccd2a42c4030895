package org.sperli.launcher.ssh;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.sshd.client.channel.ChannelExec;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.SshConstants;
import org.apache.sshd.common.channel.Channel;
import org.apache.sshd.common.channel.ChannelListener;
import org.apache.sshd.common.util.buffer.Buffer;
import org.sperli.jobspec.DescriptionLine;
import org.sperli.launcher.job.RankOutputs;
import org.sperli.launcher.report.Console;

/**
 * A rank on an SSH host: one exec channel. The remote shell first reports its pid on stderr
 * ({@value #PID_MARKER} N, a line the console never shows) and then {@code exec}s the rank command, so the pid is the
 * rank's. Stopping uses that pid ({@code kill -TERM}, then {@code kill -KILL}) as well as the SSH "signal" request,
 * because closing a channel does not end a process that no longer reads or writes: without the pid a rank could
 * outlive its job on a host whose SSH server ignores signals.
 */
final class SshRankProcess extends RankOutputs {
    /** The first stderr line of the remote shell. */
    static final String PID_MARKER = "sperli-rank-pid";

    private static final Map<String, Integer> SIGNALS = Map.of(
            "HUP", 1, "INT", 2, "QUIT", 3, "ABRT", 6, "KILL", 9, "SEGV", 11, "PIPE", 13, "TERM", 15);

    private final String host;
    private final ClientSession session;
    private final ChannelExec channel;
    private final PidTap pidTap;

    private SshRankProcess(int rank, long incarnation, String host, ClientSession session, String commandLine,
                           Console console) throws IOException {
        super(rank, incarnation, console);
        this.host = host;
        this.session = session;
        this.pidTap = new PidTap(stderr());
        String wrapped = "echo " + PID_MARKER + " $$ >&2 && exec " + commandLine;
        this.channel = session.createExecChannel(wrapped);
        channel.setOut(stdout());
        channel.setErr(pidTap);
        channel.addChannelListener(new ChannelListener() {
            @Override
            public void channelClosed(Channel c, Throwable reason) {
                stdout().close();
                stderr().close();
                exitedWith(statusOf(channel));
            }
        });
    }

    /**
     * Opens the channel and writes {@code descriptionLine} to the rank's stdin, which stays open with the channel: when
     * this launcher dies or its host is cut off, the channel ends, the rank reads end-of-file and stops (rankd).
     */
    static SshRankProcess start(int rank, long incarnation, String host, ClientSession session, String commandLine,
                                DescriptionLine descriptionLine, Console console) throws IOException {
        SshRankProcess p = new SshRankProcess(rank, incarnation, host, session, commandLine, console);
        try {
            p.channel.open().verify(SshTransport.CHANNEL_OPEN_TIMEOUT);
            OutputStream stdin = p.channel.getInvertedIn();
            descriptionLine.writeTo(stdin);
            stdin.flush();
        } catch (IOException | RuntimeException e) {
            p.channel.close(true);
            throw e;
        }
        return p;
    }

    @Override
    public String where() {
        long pid = pidTap.pid();
        return "ssh " + host + (pid > 0 ? " pid " + pid : "");
    }

    @Override
    public CompletableFuture<Boolean> reachable(Duration bound) {
        return SshTransport.answersWithin(session, bound);
    }

    @Override
    public void terminate() {
        sendSignal("TERM");
        inBackground(() -> killByPid("TERM"));
    }

    @Override
    public void kill() {
        inBackground(() -> killByPid("KILL"));
        channel.close(true);
    }

    /**
     * Runs a remote {@code kill} on a thread of its own: on a host that stopped answering it waits out its command
     * timeout, and the launcher must go on ending the other ranks meanwhile (its own waits are bounded).
     */
    private void inBackground(Runnable remoteKill) {
        Thread t = new Thread(remoteKill, "sperli-kill-rank-" + rank());
        t.setDaemon(true);
        t.start();
    }

    private void sendSignal(String name) {
        try {
            Buffer buffer = session.createBuffer(SshConstants.SSH_MSG_CHANNEL_REQUEST, 32);
            buffer.putUInt(channel.getRecipient());
            buffer.putString("signal");
            buffer.putBoolean(false);
            buffer.putString(name);
            channel.writePacket(buffer);
        } catch (IOException | RuntimeException e) {
            // The channel is closing or gone; the pid kill and the channel close still follow.
        }
    }

    private void killByPid(String signal) {
        long pid = pidTap.pid();
        if (pid <= 0 || !session.isOpen()) {
            return;
        }
        try {
            session.executeRemoteCommand("kill -" + signal + " " + pid + " 2>/dev/null; true",
                    OutputStream.nullOutputStream(), StandardCharsets.UTF_8, SshTransport.COMMAND_TIMEOUT);
        } catch (IOException | RuntimeException e) {
            // The process is gone already, or the host is; either way nothing more can be done from here.
        }
    }

    private static int statusOf(ChannelExec channel) {
        Integer status = channel.getExitStatus();
        if (status != null) {
            return status;
        }
        String signal = channel.getExitSignal();
        if (signal != null) {
            return 128 + SIGNALS.getOrDefault(signal, 0);
        }
        return LOST;
    }

    /** Takes the pid line off the front of stderr and passes everything after it on. */
    private static final class PidTap extends OutputStream {
        private static final int MAX_FIRST_LINE = 64;

        private final OutputStream next;
        private final ByteArrayOutputStream first = new ByteArrayOutputStream();
        private boolean passing;
        private volatile long pid = -1;

        PidTap(OutputStream next) {
            this.next = next;
        }

        long pid() {
            return pid;
        }

        @Override
        public synchronized void write(int b) throws IOException {
            if (passing) {
                next.write(b);
                return;
            }
            if (b != '\n' && first.size() < MAX_FIRST_LINE) {
                first.write(b);
                return;
            }
            passing = true;
            String line = first.toString(StandardCharsets.US_ASCII);
            if (line.startsWith(PID_MARKER + " ")) {
                try {
                    pid = Long.parseLong(line.substring(PID_MARKER.length() + 1).strip());
                } catch (NumberFormatException e) {
                    pid = -1;
                }
            } else {
                // Not our shell's line (a shell that prints a banner): show it as the rank wrote it.
                first.writeTo(next);
                next.write(b);
            }
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) throws IOException {
            if (passing) {
                next.write(b, off, len);
                return;
            }
            for (int i = off; i < off + len; i++) {
                write(b[i]);
            }
        }

        @Override
        public synchronized void close() throws IOException {
            if (!passing && first.size() > 0) {
                first.writeTo(next);
            }
            next.close();
        }
    }
}
