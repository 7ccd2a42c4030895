package org.sperli.rankd;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.security.SecureRandom;
import java.util.Map;
import javax.net.ssl.SSLSocket;
import org.sperli.control.CallHome;
import org.sperli.identity.CallHomeTls;
import org.sperli.jvm.Clock;
import org.sperli.rankd.agent.CallHomeTarget;
import org.sperli.rankd.agent.HostAgent;

/**
 * The agent's call-home under Slurm ({@code docs/sperli-agent.md} section 9): a TLS 1.3 connection to the launcher
 * (whose certificate must have the pinned fingerprint), then a MUNGE credential whose payload binds the job, the step,
 * this node, the launcher's nonce and the hash of this connection's key. What follows on the connection is the
 * control stream; srun gives the agent a standard input already at its end, so this connection is its only link.
 */
public final class AgentCallHome {
    /** The variable srun sets to the address it runs at: the launcher's host, seen from this node. */
    static final String LAUNCH_ADDRESS = "SLURM_LAUNCH_NODE_IPADDR";
    /** Connecting and the handshake; a launcher that does not answer within it is gone. */
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(20);

    private AgentCallHome() {
    }

    /**
     * Connects and proves who this agent is; the returned socket carries the control stream.
     *
     * @throws IOException one line naming what failed (nothing secret is in it)
     */
    static SSLSocket callHome(CallHomeTarget args, Map<String, String> env, String mungeProgram)
            throws IOException {
        String launcher = env.get(LAUNCH_ADDRESS);
        String job = env.get("SLURM_JOB_ID");
        String step = env.get("SLURM_STEP_ID");
        if (launcher == null || job == null || step == null) {
            throw new IOException(LAUNCH_ADDRESS + ", SLURM_JOB_ID and SLURM_STEP_ID must be set (run by srun)");
        }
        CallHomeTls tls = CallHomeTls.create("sperli-agent " + args.node(), Clock.SYSTEM.instant(),
                new SecureRandom());
        String payload = new CallHome.Payload(job, step, args.node(), args.nonce(), tls.keyHashHex()).text();
        SSLSocket socket;
        try {
            socket = connect(tls, new InetSocketAddress(launcher, args.port()), args.launcherSha256(),
                    CONNECT_TIMEOUT);
        } catch (IOException e) {
            throw new IOException("cannot call home to " + launcher + ":" + args.port() + ": " + e.getMessage(), e);
        }
        try {
            // The credential is made only once the launcher proved its certificate: nobody else gets one.
            CallHome.writeCredential(socket.getOutputStream(), MungeCredential.of(mungeProgram, payload));
            return socket;
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    /**
     * A connection to {@code address}, handshake done, whose server certificate has {@code fingerprintHex}; any
     * other certificate fails the handshake before a byte of the agent's is sent.
     */
    public static SSLSocket connect(CallHomeTls tls, InetSocketAddress address, String fingerprintHex,
                                    Duration timeout) throws IOException {
        SSLSocket socket = (SSLSocket) tls.clientContext(fingerprintHex).getSocketFactory().createSocket();
        try {
            socket.setSSLParameters(CallHomeTls.restrict(socket.getSSLParameters()));
            socket.connect(address, (int) timeout.toMillis());
            socket.setSoTimeout((int) timeout.toMillis());
            socket.startHandshake();
            socket.setSoTimeout(0);
            return socket;
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    /**
     * The agent of an srun task: calls home, then runs with its control stream on that connection. A call-home that
     * fails is one line on standard error and exit status {@link HostAgent#REFUSED}; the launcher never sees it.
     */
    static int runAgent(String[] args, CallHomeTarget target) {
        SSLSocket socket;
        try {
            socket = callHome(target, System.getenv(), "munge");
            return HostAgent.runThisProcess(args, socket.getInputStream(), socket.getOutputStream());
        } catch (IOException e) {
            say(System.err, e.getMessage());
            return HostAgent.REFUSED;
        }
    }

    /** Writes {@code line} as the agent's one line about a failed call-home. */
    static void say(PrintStream err, String line) {
        err.println("sperli-rankd --host-agent: " + line);
        err.flush();
    }
}
