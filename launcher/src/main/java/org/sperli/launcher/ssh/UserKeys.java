package org.sperli.launcher.ssh;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.sshd.common.NamedResource;
import org.apache.sshd.common.config.keys.FilePasswordProvider;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.config.keys.OpenSshCertificate;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.apache.sshd.common.config.keys.PublicKeyEntryResolver;
import org.apache.sshd.common.keyprovider.KeyIdentityProvider;
import org.apache.sshd.common.util.security.SecurityUtils;

/**
 * The user's key pairs from {@code <ssh dir>/id_*} (not the {@code .pub} files), in a fixed order: ed25519, ecdsa,
 * rsa, then the others by name, each offered with its OpenSSH certificate first where {@code id_*-cert.pub} lies
 * beside it (as {@code ssh} does). A key file protected by a passphrase is not loaded (the launcher never asks for a
 * passphrase): it is listed in {@link #encrypted()} with its public key, so that the launcher can tell whether the
 * operator's {@code ssh-agent} holds it and, if not, say how to load it.
 */
final class UserKeys {
    private static final List<String> PREFERRED = List.of("id_ed25519", "id_ecdsa", "id_rsa");
    /** The suffix of an OpenSSH certificate beside its key: {@code id_ed25519-cert.pub}. */
    static final String CERT_SUFFIX = "-cert.pub";

    private final List<KeyPair> keys;
    private final List<Encrypted> encrypted;

    /** A key file that needs a passphrase, and its public key where a {@code .pub} file beside it says it. */
    record Encrypted(Path file, Optional<PublicKey> publicKey) {
    }

    private UserKeys(List<KeyPair> keys, List<Encrypted> encrypted) {
        this.keys = List.copyOf(keys);
        this.encrypted = List.copyOf(encrypted);
    }

    static UserKeys load(Path sshDir, Consumer<String> notes) {
        List<Path> files = new ArrayList<>();
        if (Files.isDirectory(sshDir)) {
            try (DirectoryStream<Path> dir = Files.newDirectoryStream(sshDir, "id_*")) {
                for (Path p : dir) {
                    if (!p.getFileName().toString().endsWith(".pub") && Files.isRegularFile(p)) {
                        files.add(p);
                    }
                }
            } catch (IOException e) {
                notes.accept("cannot list " + sshDir + ": " + e.getMessage());
            }
        }
        files.sort((a, b) -> {
            int ra = rankOf(a);
            int rb = rankOf(b);
            return ra != rb ? Integer.compare(ra, rb) : a.getFileName().compareTo(b.getFileName());
        });
        List<KeyPair> keys = new ArrayList<>();
        List<Encrypted> encrypted = new ArrayList<>();
        for (Path file : files) {
            if (isEncrypted(file)) {
                encrypted.add(new Encrypted(file, publicKey(Path.of(file + ".pub"))));
                continue;
            }
            try (InputStream in = Files.newInputStream(file)) {
                Iterable<KeyPair> pairs = SecurityUtils.loadKeyPairIdentities(null,
                        NamedResource.ofName(file.toString()), in, FilePasswordProvider.EMPTY);
                if (pairs != null) {
                    for (KeyPair pair : pairs) {
                        certified(pair, Path.of(file + CERT_SUFFIX), notes).ifPresent(keys::add);
                        keys.add(pair);
                    }
                }
            } catch (IOException | GeneralSecurityException | RuntimeException e) {
                notes.accept("skipping SSH key " + file + ": " + e.getMessage());
            }
        }
        return new UserKeys(keys, encrypted);
    }

    /** The keys to offer, certificates first. */
    KeyIdentityProvider provider() {
        return KeyIdentityProvider.wrapKeyPairs(keys);
    }

    List<KeyPair> keys() {
        return keys;
    }

    /** The key files that need a passphrase. */
    List<Encrypted> encrypted() {
        return encrypted;
    }

    /**
     * {@code pair} with the certificate in {@code certFile} as its public key, when that file exists and certifies
     * this very key; else empty (a certificate of another key is said and not offered).
     */
    static Optional<KeyPair> certified(KeyPair pair, Path certFile, Consumer<String> notes) {
        if (!Files.isRegularFile(certFile)) {
            return Optional.empty();
        }
        Optional<PublicKey> cert = publicKey(certFile);
        if (cert.isPresent() && cert.get() instanceof OpenSshCertificate c
                && KeyUtils.compareKeys(c.getCertPubKey(), pair.getPublic())) {
            return Optional.of(new KeyPair(c, pair.getPrivate()));
        }
        notes.accept("not offering " + certFile + ": it is not an OpenSSH certificate of the key beside it");
        return Optional.empty();
    }

    /** The public key (or certificate) of an OpenSSH {@code .pub} line, or empty where there is none. */
    static Optional<PublicKey> publicKey(Path pubFile) {
        if (!Files.isRegularFile(pubFile)) {
            return Optional.empty();
        }
        try {
            String line = Files.readString(pubFile).strip();
            return Optional.ofNullable(PublicKeyEntry.parsePublicKeyEntry(line).resolvePublicKey(null, null,
                    PublicKeyEntryResolver.IGNORING));
        } catch (IOException | GeneralSecurityException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * Whether a private key file needs a passphrase, from its text alone: OpenSSH's format names its cipher ("none"
     * when plain), PEM files say {@code ENCRYPTED}.
     */
    static boolean isEncrypted(Path file) {
        try {
            String text = Files.readString(file);
            if (text.contains("ENCRYPTED")) {
                return true;
            }
            int begin = text.indexOf("-----BEGIN OPENSSH PRIVATE KEY-----");
            int end = text.indexOf("-----END OPENSSH PRIVATE KEY-----");
            if (begin < 0 || end < begin) {
                return false;
            }
            String base64 = text.substring(begin + 35, end).replaceAll("\\s", "");
            byte[] bytes = java.util.Base64.getDecoder().decode(base64);
            // "openssh-key-v1\0", then the cipher name as an SSH string.
            int at = "openssh-key-v1".length() + 1;
            int length = ((bytes[at] & 0xff) << 24) | ((bytes[at + 1] & 0xff) << 16) | ((bytes[at + 2] & 0xff) << 8)
                    | (bytes[at + 3] & 0xff);
            String cipher = new String(bytes, at + 4, Math.min(length, 64), java.nio.charset.StandardCharsets.US_ASCII);
            return !cipher.equals("none");
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private static int rankOf(Path p) {
        int i = PREFERRED.indexOf(p.getFileName().toString());
        return i < 0 ? PREFERRED.size() : i;
    }
}
