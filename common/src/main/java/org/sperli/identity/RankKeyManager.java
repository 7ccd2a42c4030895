package org.sperli.identity;

import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * Holds one key: the rank's Ed25519 key with its certificate. It offers it whenever the TLS stack asks for the key
 * type of that key, on either side, and nothing else. (A key store and the JDK's key manager factory would do the
 * same after encrypting the key with a password for nothing.)
 */
final class RankKeyManager extends X509ExtendedKeyManager {
    static final String ALIAS = "rank";

    private final X509Certificate[] chain;
    private final PrivateKey key;

    RankKeyManager(RankCredentials credentials) {
        this.chain = new X509Certificate[] {credentials.certificate()};
        this.key = credentials.privateKey();
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
        return matches(keyType) ? new String[] {ALIAS} : null;
    }

    @Override
    public String chooseClientAlias(String[] keyTypes, Principal[] issuers, Socket socket) {
        return anyMatches(keyTypes) ? ALIAS : null;
    }

    @Override
    public String chooseEngineClientAlias(String[] keyTypes, Principal[] issuers, SSLEngine engine) {
        return anyMatches(keyTypes) ? ALIAS : null;
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
        return matches(keyType) ? new String[] {ALIAS} : null;
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
        return matches(keyType) ? ALIAS : null;
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
        return matches(keyType) ? ALIAS : null;
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
        return ALIAS.equals(alias) ? chain.clone() : null;
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
        return ALIAS.equals(alias) ? key : null;
    }

    /** The JDK asks by key algorithm name and then insists the key's own name is the same, so compare exactly. */
    private boolean matches(String keyType) {
        return key.getAlgorithm().equals(keyType);
    }

    private boolean anyMatches(String[] keyTypes) {
        if (keyTypes != null) {
            for (String keyType : keyTypes) {
                if (matches(keyType)) {
                    return true;
                }
            }
        }
        return false;
    }
}
