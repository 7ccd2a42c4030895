package org.sperli.crypto;

import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * ACCP's native library, kept unpacked in the user's cache so that a rank JVM loads it directly instead of unpacking
 * it again.
 *
 * <p>Why: ACCP's jar is signed, and on every start its loader copies the 9.6 MB library out of the jar through the
 * JDK's signature check, hashing it with SHA-256 in code not yet compiled, a large part of a rank's start-up (see
 * docs/performance.md, section 3.7). A JVM started with {@link #jvmOptions} (the library's directory as
 * {@code java.library.path} and ACCP's documented {@code useExternalLib} switch) loads the unpacked copy with
 * {@code System.loadLibrary}.
 *
 * <p>Trust: the copy lives in {@code $XDG_CACHE_HOME/sperli/native/accp-CRC-SIZE/} (default {@code ~/.cache}), a
 * directory only its owner can use, as the jar it comes from is the owner's; it is written under a temporary name
 * and renamed, and used only when its size and CRC-32 are those of the jar entry and the directory is the user's
 * with mode 700. Anything else (no ACCP jar on the class path, another platform, a cache that cannot be written)
 * means no options: the rank then unpacks the library itself as before.
 */
public final class AccpLibrary {
    /** ACCP's own name for the switch that makes it call {@code System.loadLibrary}. */
    static final String USE_EXTERNAL_LIB = "com.amazon.corretto.crypto.provider.useExternalLib";
    /** The library's file name, inside the jar and in the cache. */
    static final String FILE_NAME = "libamazonCorrettoCryptoProvider.so";
    private static final String ENTRY = "com/amazon/corretto/crypto/provider/" + FILE_NAME;
    /**
     * Lets ACCP load its native library without the JDK's four-line warning about a restricted method (JDK 22 and
     * later print it; JDK 17 accepts the option and needs nothing). Every JVM of SPERLI starts with it, whatever its
     * TLS engine, because a class-data archive or AOT cache is used fully only by JVMs with the module options it was
     * made with, and JDK 25 says so in three error lines at every start otherwise.
     */
    public static final String NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED";
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");

    private AccpLibrary() {
    }

    /**
     * The JVM options that make a JVM on this host with this class path load the cached library, preparing the
     * cache first when needed; none when the cache cannot be used here (never an exception). The JVM needs
     * {@link #NATIVE_ACCESS} as well, which its command line has in any case.
     */
    public static List<String> jvmOptions(Map<String, String> env) {
        return cachedLibrary(env).map(lib -> List.of("-Djava.library.path=" + lib.getParent(),
                "-D" + USE_EXTERNAL_LIB + "=true")).orElse(List.of());
    }

    /** The cached library, prepared now if needed; empty when there is none to be had. */
    static Optional<Path> cachedLibrary(Map<String, String> env) {
        Optional<Path> jar = accpJar();
        if (jar.isEmpty()) {
            return Optional.empty();
        }
        try (ZipFile zip = new ZipFile(jar.get().toFile())) {
            ZipEntry entry = zip.getEntry(ENTRY);
            if (entry == null || entry.getSize() < 0 || entry.getCrc() < 0) {
                return Optional.empty();
            }
            // Named by content, so that every jar that carries the same library (ACCP's own, a shaded one) shares it.
            Path dir = cacheRoot(env).resolve("sperli").resolve("native")
                    .resolve(String.format("accp-%08x-%d", entry.getCrc(), entry.getSize()));
            Path lib = dir.resolve(FILE_NAME);
            if (!ownerOnly(dir)) {
                Files.createDirectories(dir.getParent());
                try {
                    Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
                } catch (FileAlreadyExistsException e) {
                    // made by another launcher a moment ago, or something else is there: checked next
                }
                if (!ownerOnly(dir)) {
                    return Optional.empty();
                }
            }
            if (matches(lib, entry)) {
                return Optional.of(lib);
            }
            Path partial = Files.createTempFile(dir, ".partial-", ".so");
            try {
                try (InputStream in = zip.getInputStream(entry)) {
                    Files.copy(in, partial, StandardCopyOption.REPLACE_EXISTING);
                }
                if (!matches(partial, entry)) {
                    return Optional.empty();
                }
                moveIntoPlace(partial, lib);
            } finally {
                Files.deleteIfExists(partial);
            }
            return matches(lib, entry) ? Optional.of(lib) : Optional.empty();
        } catch (IOException | RuntimeException e) {
            // No cache is only slower: the rank unpacks the library itself.
            return Optional.empty();
        }
    }

    /** The jar ACCP's library comes from, when it is a plain file on this JVM's class path. */
    private static Optional<Path> accpJar() {
        URL url = AccpLibrary.class.getClassLoader().getResource(ENTRY);
        if (url == null || !"jar".equals(url.getProtocol())) {
            return Optional.empty();
        }
        try {
            URL file = ((JarURLConnection) url.openConnection()).getJarFileURL();
            return "file".equals(file.getProtocol()) ? Optional.of(Path.of(file.toURI())) : Optional.empty();
        } catch (IOException | URISyntaxException | ClassCastException e) {
            return Optional.empty();
        }
    }

    private static Path cacheRoot(Map<String, String> env) {
        String xdg = env.get("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()) {
            return Path.of(xdg);
        }
        return Path.of(System.getProperty("user.home"), ".cache");
    }

    private static boolean ownerOnly(Path dir) throws IOException {
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        PosixFileAttributes attributes = Files.readAttributes(dir, PosixFileAttributes.class,
                LinkOption.NOFOLLOW_LINKS);
        return attributes.permissions().equals(OWNER_ONLY)
                && attributes.owner().getName().equals(System.getProperty("user.name"));
    }

    private static boolean matches(Path file, ZipEntry entry) throws IOException {
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) || Files.size(file) != entry.getSize()) {
            return false;
        }
        CRC32 crc = new CRC32();
        byte[] buffer = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(file)) {
            for (int n; (n = in.read(buffer)) > 0; ) {
                crc.update(buffer, 0, n);
            }
        }
        return crc.getValue() == entry.getCrc();
    }

    private static void moveIntoPlace(Path partial, Path lib) throws IOException {
        try {
            Files.move(partial, lib, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(partial, lib, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
