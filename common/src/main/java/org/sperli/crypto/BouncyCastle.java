package org.sperli.crypto;

import java.security.Provider;
import org.bouncycastle.jce.provider.BouncyCastleProvider;

/**
 * The one Bouncy Castle provider instance of the process, never registered with {@link java.security.Security}:
 * building it is costly, and a global registration would let it take part in the provider choice of the JDK's TLS
 * stack, which must stay the JDK's own.
 */
final class BouncyCastle {
    static final Provider PROVIDER = new BouncyCastleProvider();

    private BouncyCastle() {
    }
}
