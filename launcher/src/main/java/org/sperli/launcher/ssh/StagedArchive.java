package org.sperli.launcher.ssh;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import org.sperli.launcher.job.CommandWords;

/**
 * The class-data archive of the staged rank daemon on one SSH host (see {@code org.sperli.rankd.RankArchive}, which
 * makes it): {@code ~/.cache/sperli/cds/rankd-<digest>.jsa}, the digest over the host's Java command, its version line
 * and the staged jars' SHA-256, so that another JDK or another build of the jars never maps an archive made for
 * different classes (the JVM would refuse it anyway, and then start without one for good). The host's probe lists the
 * archives it has, only from a directory and of files that are the login user's and that no one else may write: a
 * JVM executes what it maps.
 */
final class StagedArchive {
    /** The archives' directory, relative to the login directory as the staged jars are. */
    static final String DIR = ".cache/sperli/cds";
    private static final String PREFIX = "rankd-";
    private static final String SUFFIX = ".jsa";
    /** What a probe line that names an archive starts with. */
    static final String PROBE_WORD = "cds ";
    /** The probe's line when the JDK has its default CDS archives. */
    static final String JDK_ARCHIVES_LINE = "cds-jdk";
    /** The probe's line when the archives' directory is there and the login user's alone. */
    static final String DIR_LINE = "cds-dir";
    /** Silence the JVM's CDS warnings, which would reach the job's output (a stale archive, say). */
    private static final String QUIET = "-Xlog:cds=off -Xlog:cds+dynamic=off";
    /** The first Java whose ranks make a dynamic archive, not a static one (see {@link #options}). */
    static final int FIRST_FEATURE = 25;

    private final String base;

    private StagedArchive(String base) {
        this.base = base;
    }

    /** The archive for {@code java} (as the probe named it, with its version line) running {@code jars}. */
    static StagedArchive of(String java, String versionLine, List<RankdClasspath.Jar> jars) {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
        digest.update((java + "\n" + versionLine + "\n").getBytes(StandardCharsets.UTF_8));
        for (RankdClasspath.Jar jar : jars) {
            digest.update((jar.sha256Hex() + "\n").getBytes(StandardCharsets.US_ASCII));
        }
        return new StagedArchive(DIR + "/" + PREFIX + HexFormat.of().formatHex(digest.digest(), 0, 12));
    }

    String path() {
        return base + SUFFIX;
    }

    /**
     * What a host's probe found: whether the archives' directory is there (the probe makes it) and only the login
     * user's ({@code dir}), whether the JDK has its default CDS archives ({@code jdkArchives}), and the archives of
     * ours in that directory.
     */
    record Host(boolean dir, boolean jdkArchives, Set<String> archives) {
        /** A host whose probe said nothing of archives: a rank daemon of its own, or an older probe. */
        static final Host NONE = new Host(false, false, Set.of());
    }

    /** Gathers a {@link Host} from the probe's lines. */
    static final class HostReader {
        private boolean dir;
        private boolean jdkArchives;
        private final Set<String> archives = new HashSet<>();

        /** Takes one probe line; false when it is not about archives. */
        boolean read(String line) {
            if (line.equals(DIR_LINE)) {
                dir = true;
            } else if (line.equals(JDK_ARCHIVES_LINE)) {
                jdkArchives = true;
            } else if (line.startsWith(PROBE_WORD)) {
                archives.add(line.substring(PROBE_WORD.length()));
            } else {
                return false;
            }
            return true;
        }

        Host host() {
            return new Host(dir, jdkArchives, Set.copyOf(archives));
        }
    }

    /**
     * The JVM options of a rank on a Java of {@code feature}: map the archive when the host has it; else have the JVM
     * record what the first rank to complete a job needs to make it (see {@code RankArchive}). Before Java
     * {@value #FIRST_FEATURE} that is the JVM's class list, named after the remote shell's pid (which {@code exec}
     * keeps), for a static archive: a JDK 17 JVM recording for a dynamic archive ({@code -XX:+RecordDynamicDumpInfo})
     * was seen to loop for good in its exit (in the JDK's linking of the loaded classes, {@code JVM_BeforeHalt}), one
     * two-rank job in five, while Java 25 ended every one. From Java 25 on it is that record, and only where the JDK
     * has its default CDS archives: without them such a JVM refuses to start. Nothing without the directory: a JVM
     * that cannot open its class list says so on the job's output.
     */
    String options(int feature, Host host) {
        if (!host.dir()) {
            return "";
        }
        if (host.archives().contains(path())) {
            return "-XX:SharedArchiveFile=" + CommandWords.quote(path()) + " " + QUIET;
        }
        if (feature < FIRST_FEATURE) {
            // Unquoted, so that the shell puts in its pid: the base is ours, made of safe characters only.
            return "-XX:DumpLoadedClassList=" + base + ".rank-$$.classlist -Dsperli.rankd.cds=" + base + " " + QUIET;
        }
        return host.jdkArchives() ? "-XX:+RecordDynamicDumpInfo -Dsperli.rankd.cds=" + base + " " + QUIET : "";
    }

    /** What {@code sperli run -v} says of the archive of ranks on a Java of {@code feature}. */
    String describe(int feature, Host host) {
        if (!host.dir()) {
            return "no class-data archive (~/" + DIR + " cannot be made, or others may write it)";
        }
        if (host.archives().contains(path())) {
            return "with the class-data archive ~/" + path();
        }
        if (feature < FIRST_FEATURE) {
            return "the first rank to complete a job makes a class-data archive (a few seconds, once)";
        }
        return host.jdkArchives() ? "the first rank to complete a job makes a class-data archive"
                : "no class-data archive (the JDK has no default CDS archive to build on)";
    }

    /**
     * The probe's shell lines, run after it set {@code $j} to the Java command: {@value #JDK_ARCHIVES_LINE} when the
     * JDK has its default CDS archives; then the archives' directory made owner-only where missing, and
     * {@value #DIR_LINE} and {@value #PROBE_WORD} with the path of each archive of ours, when the directory is the
     * user's and not writable by group or others (the ranks then start without one).
     */
    static String probeScript() {
        return jdkArchivesScript() + archivesScript();
    }

    /**
     * Prints {@value #JDK_ARCHIVES_LINE} when the JDK of the probe's {@code $j} has its default CDS archives (with and
     * without compressed oops), on which a dynamic archive is built.
     */
    private static String jdkArchivesScript() {
        return "r=$(readlink -f \"$(command -v \"$j\")\" 2>/dev/null) && h=$(dirname \"$(dirname \"$r\")\") && [ -f"
                + " \"$h/lib/server/classes.jsa\" ] && [ -f \"$h/lib/server/classes_nocoops.jsa\" ] && echo "
                + JDK_ARCHIVES_LINE + "; ";
    }

    private static String archivesScript() {
        // find prints the directory only when it ran and found no group or other write bit: a find that fails
        // (not GNU, say) counts as unsafe.
        String d = "\"$d\"";
        return "d=" + DIR + "; [ -d " + d + " ] || { mkdir -p " + d + " && chmod 700 " + d + "; } 2>/dev/null;"
                + " if [ -d " + d + " ] && [ -O " + d + " ] && [ \"$(find " + d + " -maxdepth 0 ! -perm /022"
                + " 2>/dev/null)\" = " + d + " ]; then echo " + DIR_LINE + "; for f in " + d + "/" + PREFIX + "*"
                + SUFFIX + "; do if [ -f \"$f\" ] && [ -O \"$f\" ]; then echo \"" + PROBE_WORD + "$f\"; fi; done; fi; ";
    }
}
