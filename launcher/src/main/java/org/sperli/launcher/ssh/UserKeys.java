package org.sperli.launcher.ssh;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.sshd.common.NamedResource;
import org.apache.sshd.common.config.keys.FilePasswordProvider;
import org.apache.sshd.common.keyprovider.KeyIdentityProvider;
import org.apache.sshd.common.util.security.SecurityUtils;

/**
 * The user's key pairs from {@code <ssh dir>/id_*} (not the {@code .pub} files), in a fixed order: ed25519, ecdsa,
 * rsa, then the others by name. A key that cannot be loaded (encrypted: there is no passphrase prompt and no agent
 * support) is skipped with a note; IdentityFile lines of {@code config} are loaded by MINA SSHD itself.
 */
final class UserKeys {
    private static final List<String> PREFERRED = List.of("id_ed25519", "id_ecdsa", "id_rsa");

    private UserKeys() {
    }

    static KeyIdentityProvider load(Path sshDir, Consumer<String> notes) {
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
        for (Path file : files) {
            try (InputStream in = Files.newInputStream(file)) {
                Iterable<KeyPair> pairs = SecurityUtils.loadKeyPairIdentities(null,
                        NamedResource.ofName(file.toString()), in, FilePasswordProvider.EMPTY);
                if (pairs != null) {
                    pairs.forEach(keys::add);
                }
            } catch (IOException | GeneralSecurityException | RuntimeException e) {
                notes.accept("skipping SSH key " + file + ": " + e.getMessage());
            }
        }
        return KeyIdentityProvider.wrapKeyPairs(keys);
    }

    private static int rankOf(Path p) {
        int i = PREFERRED.indexOf(p.getFileName().toString());
        return i < 0 ? PREFERRED.size() : i;
    }
}
