package org.sperli.launcher.ssh;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.sshd.client.config.hosts.HostConfigEntry;
import org.apache.sshd.common.NamedResource;
import org.apache.sshd.common.config.keys.FilePasswordProvider;
import org.apache.sshd.common.util.security.SecurityUtils;

/**
 * The {@code CertificateFile} lines of a host's {@code ssh_config} entry, each paired with the private key it
 * certifies: one of the user's {@code id_*} keys, or an {@code IdentityFile} of the entry (OpenSSH pairs them the same
 * way). A certificate with no usable key beside it is said on {@code details} and not offered; an agent that holds
 * the key and its certificate offers them itself.
 */
final class ConfigCertificates {
    private static final String CERTIFICATE_FILE = "CertificateFile";

    private ConfigCertificates() {
    }

    static List<KeyPair> of(HostConfigEntry entry, UserKeys keys, Consumer<String> details) {
        String value = entry.getProperty(CERTIFICATE_FILE);
        if (value == null || value.isBlank()) {
            return List.of();
        }
        List<KeyPair> candidates = new ArrayList<>(keys.keys());
        for (String identity : entry.getIdentities()) {
            candidates.addAll(load(expand(identity)));
        }
        List<KeyPair> certified = new ArrayList<>();
        for (String file : value.split(",")) {
            Path cert = expand(file.strip());
            Optional<KeyPair> pair = candidates.stream()
                    .map(k -> UserKeys.certified(k, cert, note -> { })).flatMap(Optional::stream).findFirst();
            if (pair.isPresent()) {
                certified.add(pair.get());
            } else {
                details.accept("CertificateFile " + cert + " of " + entry.getHost() + ": no key file without a"
                        + " passphrase certified by it (an ssh-agent holding the key and certificate offers them)");
            }
        }
        return certified;
    }

    private static Path expand(String file) {
        return file.startsWith("~/") ? Path.of(System.getProperty("user.home"), file.substring(2)) : Path.of(file);
    }

    private static List<KeyPair> load(Path file) {
        if (!Files.isRegularFile(file) || UserKeys.isEncrypted(file)) {
            return List.of();
        }
        List<KeyPair> pairs = new ArrayList<>();
        try (InputStream in = Files.newInputStream(file)) {
            Iterable<KeyPair> loaded = SecurityUtils.loadKeyPairIdentities(null, NamedResource.ofName(file.toString()),
                    in, FilePasswordProvider.EMPTY);
            if (loaded != null) {
                loaded.forEach(pairs::add);
            }
        } catch (IOException | GeneralSecurityException | RuntimeException e) {
            // Not usable here; MINA's own loading of the IdentityFile says why where it matters.
        }
        return pairs;
    }
}
