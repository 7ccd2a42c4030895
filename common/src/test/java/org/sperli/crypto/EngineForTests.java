package org.sperli.crypto;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Chooses the TLS engine of a test run before any test builds a TLS context, as {@code sperli-rankd} does at its
 * start: {@code SPERLI_TLS_ENGINE} when set, else auto. The build runs the TLS and refusal tests once more with
 * {@code SPERLI_TLS_ENGINE=jdk}, so every rule is checked on both engines.
 */
public final class EngineForTests implements LauncherSessionListener {
    @Override
    public void launcherSessionOpened(LauncherSession session) {
        CryptoEngine.Choice choice = CryptoEngine.select(null, System.getenv());
        System.out.println("tests: " + choice.note());
    }
}
