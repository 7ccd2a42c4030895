package org.sperli.launcher.ssh;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.StringJoiner;
import org.sperli.crypto.AccpLibrary;
import org.sperli.launcher.exit.LauncherException;
import org.sperli.launcher.job.CommandWords;
import org.sperli.launcher.job.EphemeralPorts;
import org.sperli.launcher.job.EphemeralRange;
import org.sperli.launcher.job.HostMemory;
import org.sperli.launcher.job.RankCommand;
import org.sperli.launcher.job.RankJvmDefaults;
import org.sperli.launcher.report.Console;

/**
 * What starts an SSH host's ranks when no {@code --rankd} was given: its own {@code sperli-rankd} when the login
 * shell's PATH has one; otherwise the launcher's jars ({@link RankdClasspath}), staged ({@link JarStager}) into
 * {@code ~/.cache/sperli/lib/<sha256>.jar} and run by the host's Java ({@code --remote-java PATH}, else
 * {@code $JAVA_HOME/bin/java}, else {@code java} on the PATH). So a host needs only a JDK.
 *
 * <p>One remote command finds out everything: the size of the job jar's cached copy, whether {@code sperli-rankd} is
 * there, which Java would run and its {@code -version} line, the SHA-256 of each jar already in the cache
 * ({@code sha256sum}), the class-data archives of earlier jobs ({@link StagedArchive}), which the ranks then map, the
 * host's available memory and free swap, so that a host given more ranks than it can hold refuses the job before any
 * rank starts ({@link HostMemory}), its ephemeral port range, so that ranks whose ports lie in it do too
 * ({@link EphemeralPorts}), and which of the job's host names it cannot resolve ({@link HostNames}); all before
 * anything is staged.
 * A host that holds all of it is never asked for a copy (over the built-in client an SFTP channel, which on OpenSSH
 * starts a process of its own, a large part of a host's preparation: see docs/performance.md, section 4). The probe
 * and the copies go through the host's {@link RemoteShell}, whatever logs in. A Java that is missing
 * or older than {@value JavaVersion#MINIMUM} refuses the job before any rank starts, in one line naming the host and
 * what it found. A cached jar whose hash differs is replaced; where {@code sha256sum} is missing, a cached file of the
 * right size is kept (the name is its hash, written only by rename of a whole copy).
 */
final class RemoteRankd {
    /** The sum recorded for a cached file that exists on a host without {@code sha256sum}. */
    static final String NO_SUM = "-";
    /** The first word of the probe's line that gives the job jar's size. */
    private static final String SIZE_WORD = "sperli-size";
    /** The most of a line the host printed that a message repeats: a host's output is not ours to flood with. */
    private static final int MAX_ECHO = 200;
    private static final String RANKD_MAIN = RankCommand.RANKD_MAIN;

    private RemoteRankd() {
    }

    /**
     * What {@link #prepare} found and made: the command (before the rank's arguments) that starts a rank, the size
     * of the job jar's cached copy on the host (-1 where it has none), and the host's memory with its free swap in kB
     * and its ephemeral port range as the probe found them (empty where it printed none), by which the host is judged
     * again when ranks move to it ({@link #judge}).
     */
    record Prepared(String command, String agentCommand, long jobJarSize, OptionalLong availableKib,
                    Optional<EphemeralRange> ephemeral) {
    }

    /**
     * Refuses the job when {@code host} cannot hold ranks on {@code ports}, by what its probe found: memory
     * ({@link HostMemory}) and ports in its ephemeral range ({@link EphemeralPorts}).
     *
     * @throws LauncherException with {@link org.sperli.launcher.exit.ExitCodes#START_FAILED} and the one line
     */
    static void judge(String host, List<Integer> ports, OptionalLong availableKib,
                      Optional<EphemeralRange> ephemeral) {
        HostMemory.remoteRefusal(host, ports.size(), availableKib).ifPresent(why -> {
            throw LauncherException.startFailed(why, null);
        });
        EphemeralPorts.refusal(host, ports, ephemeral).ifPresent(why -> {
            throw LauncherException.startFailed(why, null);
        });
    }

    /**
     * The command that starts a rank on {@code host}, staging the rank daemon where it needs it, and the size of the
     * host's copy of {@code jobJarPath} (which the caller stages).
     *
     * @throws LauncherException when the host cannot run its ranks on {@code ports} (a name of {@code names} it
     *         cannot resolve, too little memory for them, a port in its ephemeral range, no usable Java) or the staging
     *         fails
     * @throws IOException when the login fails under the probe or the copy
     */
    static Prepared prepare(RemoteShell shell, String host, List<Integer> ports, HostNames names,
                            boolean rankDaemon, String remoteJavaOrNull, RankdClasspath classpath, String jobJarPath,
                            Console console) throws IOException {
        // The jars are hashed (begun before the login) first, so that the one probe also sums their cached copies; a
        // class path that cannot be staged matters only once the host turns out to have no sperli-rankd.
        List<RankdClasspath.Jar> jars = List.of();
        IOException unstageable = null;
        try {
            jars = classpath.jars();
        } catch (IOException e) {
            unstageable = e;
        }
        List<String> cached = new ArrayList<>();
        for (RankdClasspath.Jar jar : jars) {
            cached.add(jar.remotePath());
        }
        Probe found = Probe.run(shell, remoteJavaOrNull, jobJarPath, cached, names);
        names.check(host, found.unresolved());
        // Ranks of another command (--rankd) may be anything: only the rank daemon's JVMs are judged for memory.
        Probe probe = rankDaemon ? found : found.withoutMemory();
        judge(host, ports, probe.availableKib(), probe.ephemeral());
        if (probe.rankdPath() != null) {
            console.detail("sperli-rankd on " + host + ": " + probe.rankdPath());
            return new Prepared(RankCommand.REMOTE_DEFAULT, RankCommand.REMOTE_DEFAULT, probe.jobJarSize(),
                    probe.availableKib(), probe.ephemeral());
        }
        OptionalInt feature = JavaVersion.feature(probe.javaVersionLine());
        if (feature.isEmpty() || feature.getAsInt() < JavaVersion.MINIMUM) {
            throw LauncherException.startFailed("host " + host + " has no sperli-rankd on its PATH, and its Java"
                    + " cannot run ranks: " + probe.java() + " -version says '" + probe.javaVersionLine() + "' (Java "
                    + JavaVersion.MINIMUM + " or newer is needed; --remote-java PATH names another, --rankd CMD"
                    + " another rank command)", null);
        }
        if (unstageable != null) {
            throw LauncherException.startFailed("cannot stage the rank daemon on " + host + ": "
                    + unstageable.getMessage(), unstageable);
        }
        int copied = 0;
        StringJoiner remoteClasspath = new StringJoiner(":");
        for (RankdClasspath.Jar jar : jars) {
            String sum = probe.sums().get(jar.remotePath());
            remoteClasspath.add(jar.remotePath());
            if (jar.sha256Hex().equals(sum)) {
                continue;
            }
            boolean wrong = sum != null && !sum.equals(NO_SUM);
            if (JarStager.stage(shell, jar.path(), jar.size(), jar.remotePath(), RankdClasspath.CACHE_DIR, wrong)) {
                copied++;
            }
        }
        StagedArchive archive = StagedArchive.of(probe.java(), probe.javaVersionLine(), jars);
        console.detail((copied > 0 ? "staged the rank daemon on " + host + " (" + copied + " of " + jars.size()
                + " jars)" : "rank daemon already on " + host) + " in ~/" + RankdClasspath.CACHE_DIR + ", run by "
                + probe.java() + " (" + probe.javaVersionLine() + "), "
                + archive.describe(feature.getAsInt(), probe.archives()));
        String archiveOptions = archive.options(feature.getAsInt(), probe.archives());
        String classpathAndMain = " -cp " + CommandWords.quote(remoteClasspath.toString()) + " " + RANKD_MAIN;
        // The agent only starts and watches processes: none of the ranks' options, and above all not their
        // class-list dump, which a rank removes at its end and an agent would leave behind.
        return new Prepared(CommandWords.quote(probe.java()) + " " + AccpLibrary.NATIVE_ACCESS + " "
                + String.join(" ", RankJvmDefaults.OPTIONS)
                + (probe.hugePagesOnRequest() ? " " + RankJvmDefaults.HUGE_PAGES : "")
                + (archiveOptions.isEmpty() ? "" : " " + archiveOptions) + classpathAndMain,
                CommandWords.quote(probe.java()) + " " + String.join(" ", RankJvmDefaults.AGENT_OPTIONS)
                        + classpathAndMain, probe.jobJarSize(), probe.availableKib(), probe.ephemeral());
    }

    /** The shell line that prints {@value #SIZE_WORD} and the size of {@code file} when it is on the host. */
    private static String sizeScript(String file) {
        String f = CommandWords.quote(file);
        return "if [ -f " + f + " ]; then echo \"" + SIZE_WORD + " $(wc -c < " + f + ")\"; fi; ";
    }

    /**
     * The shell lines that print {@code sha256sum}'s line for each of {@code files} that exists on the host, or
     * {@link #NO_SUM} and its path where {@code sha256sum} is missing.
     */
    private static String sumsScript(List<String> files) {
        StringBuilder script = new StringBuilder();
        for (String file : files) {
            String f = CommandWords.quote(file);
            script.append("if [ -f ").append(f).append(" ]; then sha256sum ").append(f)
                    .append(" 2>/dev/null || echo ").append(NO_SUM).append(' ').append(f).append("; fi; ");
        }
        return script.toString();
    }

    /** {@code line} without control characters and cut to {@value #MAX_ECHO} characters, to be quoted in a message. */
    static String printable(String line) {
        String clean = line.codePoints().filter(c -> c >= 0x20 && c != 0x7f)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
        return clean.length() > MAX_ECHO ? clean.substring(0, MAX_ECHO) + "..." : clean;
    }

    /**
     * What the host's login shell finds, in one remote command: the size of the job jar's cached copy (-1 where there
     * is none); {@code sperli-rankd}'s path when it is on the PATH; else the Java command that would run ranks, the
     * first line of its {@code -version} output (an error line when it is missing), the SHA-256 of each asked-for
     * file already on the host, by path ({@link #NO_SUM} where the host has no {@code sha256sum}), what it has for
     * class-data archives, its available memory and free swap in kB (empty where it has no {@code /proc/meminfo}),
     * its ephemeral port range (empty where it printed none, {@link EphemeralPorts#PROBE_SCRIPT}), and the job's host
     * names it cannot resolve ({@link HostNames#probeScript}).
     */
    record Probe(long jobJarSize, OptionalLong availableKib, Optional<EphemeralRange> ephemeral, String rankdPath,
                 String java, String javaVersionLine, Map<String, String> sums, StagedArchive.Host archives,
                 boolean hugePagesOnRequest, List<String> unresolved) {
        /** This probe as if the host had printed no memory: a host not to be judged for it. */
        Probe withoutMemory() {
            return new Probe(jobJarSize, OptionalLong.empty(), ephemeral, rankdPath, java, javaVersionLine, sums,
                    archives, hugePagesOnRequest, unresolved);
        }

        /** The first word of the probe's line with the kernel's mode of transparent huge pages. */
        static final String HUGE_PAGES_WORD = "sperli-thp";
        /** Prints the two lines of {@code /proc/meminfo} that {@link HostMemory} reads; nothing where there is none. */
        private static final String MEMORY_SCRIPT = "grep -E '^(" + HostMemory.MEM_AVAILABLE + "|"
                + HostMemory.SWAP_FREE + ")' " + HostMemory.MEMINFO + " 2>/dev/null; ";

        static Probe run(RemoteShell shell, String remoteJavaOrNull, String jobJarPath, List<String> cached,
                         HostNames names) throws IOException {
            String java = remoteJavaOrNull != null ? CommandWords.quote(remoteJavaOrNull)
                    : "\"${JAVA_HOME:+$JAVA_HOME/bin/}java\"";
            return parse(shell.run(sizeScript(jobJarPath) + MEMORY_SCRIPT + EphemeralPorts.PROBE_SCRIPT
                    + names.probeScript()
                    + "p=$(command -v sperli-rankd 2>/dev/null) && { echo \"rankd $p\"; exit 0; }; j=" + java
                    + "; echo \"java $j\"; \"$j\" -version 2>&1 | head -n 1; " + sumsScript(cached)
                    + StagedArchive.probeScript() + "{ read -r t < " + RankJvmDefaults.THP_MODE + " && echo \""
                    + HUGE_PAGES_WORD + " $t\"; } 2>/dev/null; true"));
        }

        static Probe parse(String out) {
            StringBuilder meminfo = new StringBuilder();
            List<Optional<EphemeralRange>> ephemeral = new ArrayList<>();
            List<String> unresolved = new ArrayList<>();
            // Taken out wherever they stand: the other lines are read by their position.
            String[] lines = Arrays.stream(out.split("\n")).filter(line -> {
                boolean memory = line.startsWith(HostMemory.MEM_AVAILABLE)
                        || line.startsWith(HostMemory.SWAP_FREE);
                if (memory) {
                    meminfo.append(line).append('\n');
                }
                boolean ports = line.startsWith(EphemeralPorts.PROBE_WORD + " ");
                if (ports) {
                    ephemeral.add(EphemeralPorts.parseProbeLine(line));
                }
                boolean name = line.startsWith(HostNames.PROBE_WORD + " ");
                if (name) {
                    unresolved.add(line.substring(HostNames.PROBE_WORD.length() + 1).strip());
                }
                return !memory && !ports && !name;
            }).toArray(String[]::new);
            OptionalLong availableKib = HostMemory.availableKib(meminfo.toString());
            Optional<EphemeralRange> range = ephemeral.isEmpty() ? Optional.empty() : ephemeral.get(0);
            long jobJarSize = -1;
            if (lines.length > 0 && lines[0].startsWith(SIZE_WORD + " ")) {
                jobJarSize = size(lines[0].substring(SIZE_WORD.length()).strip());
                lines = Arrays.copyOfRange(lines, 1, lines.length);
            }
            String first = lines.length > 0 ? lines[0].strip() : "";
            if (first.startsWith("rankd ")) {
                return new Probe(jobJarSize, availableKib, range, printable(first.substring("rankd ".length())), null,
                        null, Map.of(), StagedArchive.Host.NONE, false, List.copyOf(unresolved));
            }
            String java = first.startsWith("java ") ? printable(first.substring("java ".length())) : "java";
            String version = lines.length > 1 ? printable(lines[1].strip()) : "";
            Map<String, String> sums = new HashMap<>();
            StagedArchive.HostReader archives = new StagedArchive.HostReader();
            boolean hugePages = false;
            for (int i = 2; i < lines.length; i++) {
                String line = lines[i].strip();
                if (line.startsWith(HUGE_PAGES_WORD + " ")) {
                    hugePages = RankJvmDefaults.hugePagesOnRequest(line);
                    continue;
                }
                if (archives.read(line)) {
                    continue;
                }
                String[] parts = line.split("\\s+", 2);
                if (parts.length == 2) {
                    sums.put(parts[1], parts[0]);
                }
            }
            return new Probe(jobJarSize, availableKib, range, null, java, version.isEmpty() ? "(no output)" : version,
                    Map.copyOf(sums), archives.host(), hugePages, List.copyOf(unresolved));
        }

        /** The size {@code wc} printed, or -1 where it printed anything else (then the jar is looked at again). */
        private static long size(String printed) {
            try {
                return Long.parseLong(printed);
            } catch (NumberFormatException e) {
                return -1;
            }
        }
    }
}
