package org.sperli.launcher.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.sperli.control.CallHome;
import org.sperli.identity.CallHomeTls;
import org.sperli.rankd.AgentCallHome;

/**
 * Each check of the call-home refuses the call-home it is there for, and that call-home gets nothing: its connection
 * is closed before any byte of the control stream, the node's wait stays empty, and the launcher says one line. Each
 * case breaks exactly one thing of an otherwise good call-home (the last test shows the good one passes), so each
 * fails when its check is taken out. A real munged decodes every credential.
 */
class CallHomeRefusalTest {
    private static final String JOB = "4242";
    private static final String STEP = "0";
    private static final String NODE = "n1";
    private static final Duration SHORT = Duration.ofSeconds(3);
    private static Path dir;
    private static MungeDaemon munge;

    private final List<String> refused = new CopyOnWriteArrayList<>();
    private String nonce;
    private CallHomeTls launcherTls;
    private CallHomeServer server;

    @BeforeAll
    static void startMunge() throws IOException {
        String why = MungeDaemon.missing();
        if (why == null && !"root".equals(System.getProperty("user.name"))) {
            why = "credentials of another UID are minted as root, and this is " + System.getProperty("user.name");
        }
        assumeTrue(why == null, "skipped: no MUNGE for the call-home tests: " + why);
        dir = Files.createTempDirectory("sperli-munge");
        try {
            munge = MungeDaemon.start(dir);
        } catch (IOException e) {
            SlurmCluster.delete(dir);
            assumeTrue(false, "skipped: no MUNGE for the call-home tests: " + e.getMessage());
        }
    }

    @AfterAll
    static void stopMunge() {
        if (munge != null) {
            munge.close();
        }
        if (dir != null) {
            SlurmCluster.delete(dir);
        }
    }

    @BeforeEach
    void startServer() throws IOException {
        byte[] bytes = new byte[32];
        new SecureRandom().nextBytes(bytes);
        nonce = HexFormat.of().formatHex(bytes);
        launcherTls = CallHomeTls.create("test launcher", Instant.now(), new SecureRandom());
        server = CallHomeServer.start(launcherTls, new CallHomeServer.Expect(JOB, () -> STEP, nonce, Set.of(NODE),
                new CallHomeCheck(ProcessIds.uid(), ProcessIds.gid())), new Unmunge("unmunge"), refused::add);
    }

    @AfterEach
    void stopServer() {
        server.close();
    }

    /** An agent's TLS side, its key hash, and a good payload for it. */
    private record Agent(CallHomeTls tls, String payload) {
    }

    private Agent agent() {
        CallHomeTls tls = CallHomeTls.create("test agent", Instant.now(), new SecureRandom());
        return new Agent(tls, new CallHome.Payload(JOB, STEP, NODE, nonce, tls.keyHashHex()).text());
    }

    private SSLSocket connect(Agent agent) throws IOException {
        return AgentCallHome.connect(agent.tls(), new InetSocketAddress("127.0.0.1", server.port()),
                launcherTls.fingerprintHex(), SHORT);
    }

    private static String mint(String... args) {
        List<String> argv = new ArrayList<>(List.of("munge"));
        argv.addAll(List.of(args));
        return SlurmTools.output(argv, null, Map.of()).orElseThrow().strip();
    }

    /** The call-home with {@code credential} gets nothing: no byte, the end of the stream, no node for the wait. */
    private void assertGetsNothing(Agent agent, String credential, String reason) throws Exception {
        try (SSLSocket socket = connect(agent)) {
            if (credential != null) {
                CallHome.writeCredential(socket.getOutputStream(), credential);
            } else {
                socket.shutdownOutput();
            }
            socket.setSoTimeout((int) Duration.ofSeconds(15).toMillis());
            InputStream in = socket.getInputStream();
            int first;
            try {
                first = in.read();
            } catch (SSLException e) {
                first = -1;
            }
            assertEquals(-1, first, "a refused call-home was sent a byte");
        }
        assertEquals(Optional.empty(), server.await(NODE, Duration.ofMillis(200)));
        assertEquals(1, refused.size(), "one line per refusal: " + refused);
        assertTrue(refused.get(0).contains("refused") && refused.get(0).contains(reason), refused.get(0));
    }

    @Test
    void aCallHomeWithoutCredentialGetsNothing() throws Exception {
        assertGetsNothing(agent(), null, "no credential");
    }

    @Test
    void aCredentialOfAnotherUidGetsNothing() throws Exception {
        Agent agent = agent();
        assertGetsNothing(agent, mint("-U", "4321", "-G", "4321", "-s", agent.payload()), "UID 4321");
    }

    @Test
    void aReplayedCredentialGetsNothing() throws Exception {
        Agent agent = agent();
        String credential = mint("-s", agent.payload());
        // Decoded once already, as by whoever copied it off another connection: munged refuses it the second time.
        assertTrue(SlurmTools.output(List.of("unmunge"), credential, Map.of()).isPresent());
        assertGetsNothing(agent, credential, "Replayed");
    }

    @Test
    void aCredentialOfAnotherNonceGetsNothing() throws Exception {
        Agent agent = agent();
        String otherNonce = "00".repeat(32);
        String payload = new CallHome.Payload(JOB, STEP, NODE, otherNonce, agent.tls().keyHashHex()).text();
        assertGetsNothing(agent, mint("-s", payload), "payload");
    }

    @Test
    void aCredentialOfAnotherTlsKeyGetsNothing() throws Exception {
        Agent agent = agent();
        Agent other = agent();
        assertGetsNothing(agent, mint("-s", other.payload()), "payload");
    }

    @Test
    void anAgentPinningAnotherFingerprintSendsNothing() throws InterruptedException {
        Agent agent = agent();
        CallHomeTls impostor = CallHomeTls.create("impostor", Instant.now(), new SecureRandom());
        assertThrows(SSLException.class, () -> AgentCallHome.connect(agent.tls(),
                new InetSocketAddress("127.0.0.1", server.port()), impostor.fingerprintHex(), SHORT).close());
        assertEquals(Optional.empty(), server.await(NODE, Duration.ofMillis(500)));
    }

    @Test
    void aGoodCallHomeGetsItsNode() throws Exception {
        Agent agent = agent();
        try (SSLSocket socket = connect(agent)) {
            CallHome.writeCredential(socket.getOutputStream(), mint("-s", agent.payload()));
            Optional<SSLSocket> accepted = server.await(NODE, Duration.ofSeconds(15));
            assertTrue(accepted.isPresent(), "refused: " + refused);
            accepted.get().close();
        }
        assertEquals(List.of(), refused);
    }
}
