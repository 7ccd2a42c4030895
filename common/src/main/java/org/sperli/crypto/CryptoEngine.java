package org.sperli.crypto;

import com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider;
import com.amazon.corretto.crypto.provider.SelfTestStatus;
import java.security.NoSuchAlgorithmException;
import java.security.Provider;
import java.security.Security;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;

/**
 * Which code does the cryptography under the JDK's TLS stack (SunJSSE): the JDK's own providers, or AWS-LC through
 * the Amazon Corretto Crypto Provider (ACCP) installed as the first JCA provider. SunJSSE, its TLS 1.3 state machine,
 * its trust and key managers and every check of ours stay the same; only Ed25519, X25519, AES-GCM, HKDF and SHA-2
 * move to native code, which makes Ed25519 signatures many times cheaper and bulk TLS faster (see
 * docs/performance.md, section 3.7).
 *
 * <p>The choice is made once per process, before the first TLS context is built: {@code --tls-engine NAME} or the
 * environment variable {@value #VARIABLE}; {@code auto} (the default) takes ACCP when its native library loads, else
 * the JDK. ACCP's self tests run once, before it becomes a provider; if they do not pass, the JDK runs instead, as
 * when the library does not load. {@link AccpLibrary} lets a rank JVM load the library without unpacking it.
 * {@code accp} asked for but not usable falls back to the JDK, and {@link Choice#note} says so in one line.
 */
public final class CryptoEngine {
    /** SunJSSE's system property with the key exchange groups it offers, in order. */
    static final String NAMED_GROUPS = "jdk.tls.namedGroups";

    /** Bounds the wait for ACCP's self tests on the common pool; after it they run in the waiting thread. */
    private static final long SELF_TEST_WAIT_S = 10;

    /** The environment variable that chooses the engine when no option does. */
    public static final String VARIABLE = "SPERLI_TLS_ENGINE";

    /** The engines there are; each is named on the command line by its name in lower case. */
    public enum Name {
        /** The JDK's providers (SunEC, SunJCE): pure Java, always there. */
        JDK("SunJSSE over the JDK's own crypto"),
        /** AWS-LC through ACCP, first among the JCA providers. */
        ACCP("SunJSSE over AWS-LC (Amazon Corretto Crypto Provider)");

        private final String description;

        Name(String description) {
            this.description = description;
        }

        /** The word {@code --tls-engine} and {@value CryptoEngine#VARIABLE} take. */
        public String word() {
            return name().toLowerCase(Locale.ROOT);
        }

        public String description() {
            return description;
        }
    }

    /**
     * What runs, the one line that says so (with the reason when it is not what was asked for), and whether native
     * crypto was wanted (asked for, or auto) but could not run.
     */
    public record Choice(Name engine, String note, boolean fellBack) {
    }

    private static Choice chosen;

    private CryptoEngine() {
    }

    /**
     * The engine for {@code requestedOrNull} ({@code jdk}, {@code accp}, {@code auto}; null: the environment's
     * {@value #VARIABLE}, else auto), installed now. The first call of a process decides; later calls return that
     * choice, whatever they ask.
     *
     * @throws IllegalArgumentException for a name that is none of the three (before anything is installed)
     */
    public static synchronized Choice select(String requestedOrNull, Map<String, String> env) {
        String word = requested(requestedOrNull, env);
        if (chosen != null) {
            return chosen;
        }
        if (word.equals("jdk")) {
            chosen = new Choice(Name.JDK, "TLS engine: jdk (" + Name.JDK.description() + ")", false);
            return chosen;
        }
        String whyNot = installAccp();
        if (whyNot == null) {
            chosen = new Choice(Name.ACCP, "TLS engine: accp (" + Name.ACCP.description() + " "
                    + AmazonCorrettoCryptoProvider.INSTANCE.getVersionStr() + ")", false);
        } else {
            chosen = new Choice(Name.JDK, "TLS engine: jdk (" + Name.JDK.description() + ")"
                    + (word.equals("accp") ? "; accp was asked for but " + whyNot : "; accp not available: " + whyNot),
                    true);
        }
        return chosen;
    }

    /**
     * As {@link #select}, then loads the JDK's TLS stack (the class set-up behind {@code SSLContext.getInstance}), so
     * that a rank can do both on another thread while it reads and checks its description. Never throws for a name
     * {@link #requested} accepted.
     */
    public static Choice selectAndWarmUp(String word, Map<String, String> env) {
        Choice choice = select(word, env);
        try {
            SSLContext.getInstance("TLSv1.3");
        } catch (NoSuchAlgorithmException e) {
            // The context is made later with the same name, and fails there with its own message.
        }
        return choice;
    }

    /**
     * The engine asked for, {@code auto}, {@code jdk} or {@code accp}: {@code requestedOrNull}, else the environment's
     * {@value #VARIABLE}, else auto. Installs nothing.
     *
     * @throws IllegalArgumentException for a name that is none of the three
     */
    public static String requested(String requestedOrNull, Map<String, String> env) {
        String requested = requestedOrNull != null ? requestedOrNull : env.getOrDefault(VARIABLE, "auto");
        String word = requested.strip().toLowerCase(Locale.ROOT);
        if (!word.equals("auto") && !word.equals("jdk") && !word.equals("accp")) {
            throw new IllegalArgumentException("TLS engine '" + requested + "' is not one of auto, jdk, accp");
        }
        return word;
    }

    /**
     * The one line a launcher says about the engine its ranks will take for {@code word} (from {@link #requested}),
     * without loading ACCP itself (a launcher does no TLS): each rank decides for itself and says so only when it
     * falls back.
     */
    public static String plannedNote(String word) {
        if (word.equals("jdk")) {
            return "TLS engine: jdk (" + Name.JDK.description() + ")";
        }
        return "TLS engine: " + word + " (" + Name.ACCP.description() + " where its native library loads, else "
                + Name.JDK.description() + "; a rank that falls back says so)";
    }

    /**
     * Makes {@code engine} the one that runs from now on, whatever was chosen before: ACCP put first among the
     * providers, or removed. For benchmarks and tests that compare the engines in one process; connections already
     * made keep the crypto they negotiated with. Returns the choice, which is the JDK when ACCP cannot run here.
     */
    public static synchronized Choice switchTo(Name engine) {
        chosen = null;
        if (engine == Name.JDK) {
            Security.removeProvider(AmazonCorrettoCryptoProvider.PROVIDER_NAME);
        }
        return select(engine.word(), Map.of());
    }

    /** The engine chosen so far in this process: the JDK until {@link #select} installed another. */
    public static synchronized Name current() {
        return chosen == null ? Name.JDK : chosen.engine();
    }

    /**
     * Offers secp256r1 before x25519 in the TLS key exchange, unless the operator set {@value #NAMED_GROUPS}: ACCP
     * does P-256 in native code but not X25519, which the JDK then does in Java (an eighth of a rank's handshake
     * time at 16 ranks). Both stay offered and accepted, so a peer that sends only an x25519 key share still connects.
     * Read by SunJSSE once, when its first context is built, which is after this.
     */
    private static void preferNativeKeyExchange() {
        if (System.getProperty(NAMED_GROUPS) == null) {
            System.setProperty(NAMED_GROUPS, "secp256r1,x25519,secp384r1,x448,secp521r1");
        }
    }

    /**
     * Waits until ACCP's self tests have passed, running them here if they have not; returns null, or why ACCP
     * cannot be used. ACCP starts them on the common pool when it is made, and every thread that asks for one of its
     * algorithms before they have finished runs them all again by itself: a rank's main thread, this thread and the
     * pool ran them side by side. Waiting here, before ACCP is a provider any other thread can find, runs them once.
     */
    private static String awaitSelfTests(AmazonCorrettoCryptoProvider accp) {
        awaitTaskQueuedAfterSelfTests();
        if (accp.getSelfTestStatus() != SelfTestStatus.PASSED) {
            ForkJoinPool.commonPool().awaitQuiescence(SELF_TEST_WAIT_S, TimeUnit.SECONDS);
        }
        SelfTestStatus status = accp.getSelfTestStatus();
        if (status != SelfTestStatus.PASSED) {
            status = accp.runSelfTests();
        }
        return status == SelfTestStatus.PASSED ? null : "its self tests did not pass (" + status + ")";
    }

    /**
     * Waits, parked, for an empty task queued on the common pool after ACCP's self tests, which ACCP's constructor
     * queued from this thread a moment ago. A worker takes a queue's tasks in the order queued, so with one worker
     * (the common pool of a 2-core machine) the empty task runs once the tests have; with more, another worker may run
     * it sooner, and the caller then waits as before. {@link ForkJoinPool#awaitQuiescence} alone wakes up every
     * millisecond or so until the pool is idle: where many ranks share few cores the tests take seconds of wall time,
     * and that polling cost a measurable share of the job's CPU (see docs/performance.md, section 3.7).
     */
    static void awaitTaskQueuedAfterSelfTests() {
        // Not CompletableFuture.runAsync: with one worker it runs its task on a thread of its own, at once.
        CountDownLatch ran = new CountDownLatch(1);
        ForkJoinPool.commonPool().execute(ran::countDown);
        try {
            // Past the bound, the caller finds the tests not passed and waits or runs them itself.
            ran.await(SELF_TEST_WAIT_S, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Installs ACCP first among the providers; returns null, or why it cannot run here. */
    private static String installAccp() {
        try {
            AmazonCorrettoCryptoProvider accp = AmazonCorrettoCryptoProvider.INSTANCE;
            Throwable loading = accp.getLoadingError();
            if (loading != null) {
                return "its native library does not load here (" + loading.getMessage() + ")";
            }
            Provider first = Security.getProviders()[0];
            if (first != accp) {
                String failed = awaitSelfTests(accp);
                if (failed != null) {
                    return failed;
                }
                Security.insertProviderAt(accp, 1);
            }
            preferNativeKeyExchange();
            return null;
        } catch (LinkageError | RuntimeException e) {
            return "it cannot be used here (" + e + ")";
        }
    }
}
