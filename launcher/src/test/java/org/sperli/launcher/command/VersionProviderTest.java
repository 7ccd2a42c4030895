package org.sperli.launcher.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sperli.crypto.CryptoEngine;
import org.sperli.launcher.LauncherHarness;
import org.sperli.launcher.LauncherHarness.Run;

/**
 * {@code sperli --version} is two lines: the build with the protocol, then the TLS engine a local rank would take with
 * this environment. Which engine a fresh process takes is checked from the distribution (DistributionIT), since
 * this JVM keeps the first choice any test made.
 */
class VersionProviderTest {
    private static List<String> versionLines(Map<String, String> env) {
        Run run = LauncherHarness.run(LauncherHarness.environment(env), "--version");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("", run.err());
        return List.of(run.out().split("\n"));
    }

    @Test
    void secondLineIsTheEngineARankWithThisEnvironmentTakes() {
        Map<String, String> env = Map.of(CryptoEngine.VARIABLE, "jdk");
        List<String> lines = versionLines(env);
        assertEquals(2, lines.size(), lines.toString());
        assertEquals("sperli " + VersionProvider.version() + " (SPERLI wire protocol v1)", lines.get(0));
        // The build filters version.properties beside the class: a version it cannot find is a packaging fault.
        assertTrue(VersionProvider.version().matches("\\d+\\.\\d+\\.\\d+.*"), VersionProvider.version());
        assertEquals(CryptoEngine.select("jdk", env).note(), lines.get(1));
    }

    @Test
    void anEngineVariableARankWouldRefuseIsNamedInOneLine() {
        List<String> lines = versionLines(Map.of(CryptoEngine.VARIABLE, "fast\nest"));
        assertEquals(2, lines.size(), lines.toString());
        assertEquals("TLS engine: none (SPERLI_TLS_ENGINE refused: TLS engine 'fast?est' is not one of auto, jdk,"
                + " accp)", lines.get(1));
    }
}
