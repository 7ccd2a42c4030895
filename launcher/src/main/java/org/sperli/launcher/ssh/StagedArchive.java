package org.sperli.launcher.ssh;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import org.sperli.launcher.job.CommandWords;

/**
 * The class-data archive of the staged rank daemon on one SSH host whose Java is {@value #FIRST_FEATURE} or newer
 * (see {@code org.sperli.rankd.RankArchive}, which makes it): {@code ~/.cache/sperli/cds/rankd-<digest>.jsa}, the
 * digest over the host's Java command, its version line and the staged jars' SHA-256, so that another JDK or another
 * build of the jars never maps an archive made for different classes (the JVM would refuse it anyway, and then start
 * without one for good). The host's probe lists the archives it has, only from a directory and of files that are the
 * login user's and that no one else may write: a JVM executes what it maps.
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
    /** Silence the JVM's CDS warnings, which would reach the job's output (a stale archive, say). */
    private static final String QUIET = "-Xlog:cds=off -Xlog:cds+dynamic=off";
    /** The first Java whose ranks get an archive (see {@link #options}). */
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
     * The JVM options of a rank on a Java of {@code feature}: map the archive when {@code present} names it, else
     * record what a dynamic archive needs and name the base path, so that the first rank to complete a job makes it.
     * None before Java {@value #FIRST_FEATURE}, where a JDK 17 JVM recording for a dynamic archive
     * ({@code -XX:+RecordDynamicDumpInfo}) was seen to loop for good in its exit (in the JDK's linking of the loaded
     * classes, {@code JVM_BeforeHalt}), one two-rank job in five (Java 25 ended every one); and none when the JDK has
     * no default CDS archive ({@code jdkArchives} false), since a JVM recording for a dynamic one then refuses to
     * start.
     */
    String options(int feature, boolean jdkArchives, Set<String> present) {
        if (feature < FIRST_FEATURE || !jdkArchives) {
            return "";
        }
        if (present.contains(path())) {
            return "-XX:SharedArchiveFile=" + CommandWords.quote(path()) + " " + QUIET;
        }
        return "-XX:+RecordDynamicDumpInfo -Dsperli.rankd.cds=" + CommandWords.quote(base) + " " + QUIET;
    }

    /** What {@code sperli run -v} says of the archive of ranks on a Java of {@code feature}. */
    String describe(int feature, boolean jdkArchives, Set<String> present) {
        if (feature < FIRST_FEATURE) {
            return "no class-data archive (Java " + FIRST_FEATURE + " or newer makes one)";
        }
        if (!jdkArchives) {
            return "no class-data archive (the JDK has no default CDS archive to build on)";
        }
        return present.contains(path()) ? "with the class-data archive ~/" + path()
                : "the first rank to complete a job makes a class-data archive";
    }

    /**
     * The probe's shell lines, run after it set {@code $j} to the Java command: {@value #JDK_ARCHIVES_LINE} when the
     * JDK has its default CDS archives, and {@value #PROBE_WORD} with the path of each archive of ours, when the
     * directory is the user's and not writable by group or others (the ranks then start without one).
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
        return "d=" + DIR + "; if [ -d \"$d\" ] && [ -O \"$d\" ] && [ \"$(find \"$d\" -maxdepth 0 ! -perm /022"
                + " 2>/dev/null)\" = \"$d\" ]; then for f in \"$d\"/" + PREFIX + "*" + SUFFIX + "; do"
                + " if [ -f \"$f\" ] && [ -O \"$f\" ]; then echo \"" + PROBE_WORD + "$f\"; fi; done; fi; ";
    }
}
