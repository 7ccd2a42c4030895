package org.sperli.launcher.slurm;

import java.io.IOException;
import java.net.InetAddress;
import java.net.SocketTimeoutException;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import org.sperli.control.CallHome;
import org.sperli.identity.CallHomeTls;

/**
 * The launcher's end of the call-home ({@code docs/sperli-agent.md} section 9): accepts TLS 1.3 connections, reads one
 * MUNGE credential from each, has it decoded and judged ({@link CallHomeCheck}), and hands the connection of a node
 * that passed to whoever waits for that node. A connection that fails any check is closed before a byte of the
 * control stream is sent, and is one line ({@code refused}); the node's wait goes on to its bound.
 */
final class CallHomeServer implements AutoCloseable {
    /** How long one connection has for its handshake and credential: a peer that stalls holds nothing longer. */
    static final Duration CREDENTIAL_TIMEOUT = Duration.ofSeconds(10);
    /**
     * Connections judged at once: each holds a thread and may run unmunge. Far above a step's nodes calling at once,
     * low enough that a flood of connections cannot exhaust the launcher; one past it is refused at once.
     */
    static final int MAX_JUDGED = 256;

    /** What a node's call-home must carry, and who judges it. */
    record Expect(String job, Supplier<String> step, String nonceHex, Set<String> nodes, CallHomeCheck check) {
    }

    private final CallHomeTls tls;
    private final SSLServerSocket server;
    private final Expect expect;
    private final Unmunge unmunge;
    private final Consumer<String> refused;
    private final Map<String, CompletableFuture<SSLSocket>> calls = new ConcurrentHashMap<>();
    private final Semaphore judging = new Semaphore(MAX_JUDGED);

    private CallHomeServer(CallHomeTls tls, SSLServerSocket server, Expect expect, Unmunge unmunge,
                           Consumer<String> refused) {
        this.tls = tls;
        this.server = server;
        this.expect = expect;
        this.unmunge = unmunge;
        this.refused = refused;
        for (String node : expect.nodes()) {
            calls.put(node, new CompletableFuture<>());
        }
    }

    /** Listens on every address of this host on a free port, and accepts from now on. */
    static CallHomeServer start(CallHomeTls tls, Expect expect, Unmunge unmunge, Consumer<String> refused)
            throws IOException {
        SSLServerSocket socket = (SSLServerSocket) tls.serverContext().getServerSocketFactory()
                .createServerSocket(0, 64, InetAddress.getByName("0.0.0.0"));
        socket.setSSLParameters(CallHomeTls.restrict(socket.getSSLParameters()));
        CallHomeServer server = new CallHomeServer(tls, socket, expect, unmunge, refused);
        Thread t = new Thread(server::acceptLoop, "sperli-call-home");
        t.setDaemon(true);
        t.start();
        return server;
    }

    int port() {
        return server.getLocalPort();
    }

    String fingerprintHex() {
        return tls.fingerprintHex();
    }

    /**
     * The connection of {@code node}'s agent once it passed every check, or empty when none came within
     * {@code bound} or the wait was ended ({@link #failPending}).
     */
    Optional<SSLSocket> await(String node, Duration bound) throws InterruptedException {
        CompletableFuture<SSLSocket> call = calls.get(node);
        if (call == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(call.get(bound.toMillis(), TimeUnit.MILLISECONDS));
        } catch (ExecutionException | TimeoutException e) {
            return Optional.empty();
        }
    }

    /** Ends every wait that is still open: the agents cannot call any more (srun ended). */
    void failPending(String why) {
        calls.values().forEach(c -> c.completeExceptionally(new IOException(why)));
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            SSLSocket socket;
            try {
                socket = (SSLSocket) server.accept();
            } catch (IOException e) {
                return;
            }
            if (!judging.tryAcquire()) {
                refuse(socket, socket.getInetAddress().getHostAddress(), "more than " + MAX_JUDGED
                        + " call-homes are being checked");
                continue;
            }
            Thread t = new Thread(() -> {
                try {
                    judge(socket);
                } finally {
                    judging.release();
                }
            }, "sperli-call-home-check");
            t.setDaemon(true);
            t.start();
        }
    }

    /** One connection: handshake, credential, decoding, the checks; the node's wait gets it only if all pass. */
    private void judge(SSLSocket socket) {
        String from = socket.getInetAddress().getHostAddress();
        try {
            socket.setSoTimeout((int) CREDENTIAL_TIMEOUT.toMillis());
            socket.startHandshake();
            Certificate[] peer = socket.getSession().getPeerCertificates();
            String keyHash = CallHomeTls.keyHashHex(((X509Certificate) peer[0]).getPublicKey());
            String credential = CallHome.readCredential(socket.getInputStream());
            Unmunge.Decoded decoded = unmunge.decode(credential);
            String node = nodeOf(decoded.payload());
            CompletableFuture<SSLSocket> call = node == null ? null : calls.get(node);
            String step = expect.step().get();
            String expected = new CallHome.Payload(expect.job(), step == null ? "?" : step, node, expect.nonceHex(),
                    keyHash).text();
            Optional<String> why = call == null ? Optional.of("the credential names no node of this job")
                    : step == null ? Optional.of("squeue does not list the agents' step")
                    : expect.check().refusal(decoded, expected);
            if (why.isEmpty() && call.isDone()) {
                why = Optional.of("node " + node + " has called home already");
            }
            if (why.isPresent()) {
                refuse(socket, from, why.get());
                return;
            }
            socket.setSoTimeout(0);
            Liveness.watch(socket);
            if (!call.complete(socket)) {
                refuse(socket, from, "node " + node + " has called home already");
            }
        } catch (SocketTimeoutException e) {
            refuse(socket, from, "no credential within " + CREDENTIAL_TIMEOUT.toSeconds() + " s");
        } catch (IOException | RuntimeException e) {
            refuse(socket, from, String.valueOf(e.getMessage()));
        }
    }

    private void refuse(SSLSocket socket, String from, String why) {
        refused.accept("call-home from " + from + " refused: " + why + "; it gets nothing");
        try {
            socket.close();
        } catch (IOException e) {
            // Closed either way.
        }
    }

    /** The {@code node=} word of a payload, or null. */
    static String nodeOf(String payload) {
        for (String word : payload.split(" ")) {
            if (word.startsWith("node=")) {
                return word.substring("node=".length());
            }
        }
        return null;
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            // Closed either way.
        }
        failPending("the launcher ended");
    }
}
