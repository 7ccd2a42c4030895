package org.sperli.launcher.command;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import org.sperli.crypto.CryptoEngine;
import picocli.CommandLine;

/**
 * {@code sperli --version}: the build's version (filtered into version.properties) with the protocol version, and the
 * TLS engine a local rank started from here would take.
 *
 * <p>The engine is found the way a rank finds it, {@link CryptoEngine#select} for this environment's
 * {@value CryptoEngine#VARIABLE} (auto when unset), so the line is the answer, not a plan: whether ACCP's native
 * library loads on this host, with its version. That loads the library into this JVM, a cost only {@code --version}
 * pays (see docs/performance.md, section 3.5); a launcher that runs a job never loads it (it does no TLS, and says
 * only the plan).
 */
public final class VersionProvider implements CommandLine.IVersionProvider {
    private final Map<String, String> env;

    /** The version of a launcher whose local ranks would get {@code env}. */
    public VersionProvider(Map<String, String> env) {
        this.env = Map.copyOf(Objects.requireNonNull(env, "env"));
    }

    @Override
    public String[] getVersion() {
        return new String[] {"sperli " + version() + " (SPERLI wire protocol v1)", engine()};
    }

    /** The engine's one line; a variable that a rank would refuse (exit status 2) is named in that line instead. */
    private String engine() {
        String word;
        try {
            word = CryptoEngine.requested(null, env);
        } catch (IllegalArgumentException e) {
            return "TLS engine: none (" + CryptoEngine.VARIABLE + " refused: "
                    + e.getMessage().replaceAll("\\p{Cntrl}", "?") + ")";
        }
        return CryptoEngine.select(word, env).note();
    }

    /** The project version, or "unknown" when run from an unfiltered class directory. */
    public static String version() {
        try (InputStream in = VersionProvider.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties p = new Properties();
            p.load(in);
            String v = p.getProperty("version", "unknown");
            return v.startsWith("${") ? "unknown" : v;
        } catch (IOException e) {
            return "unknown";
        }
    }
}
