package org.sperli.launcher.job;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.sperli.launcher.exit.LauncherException;
import org.sperli.protocol.Limits;

/**
 * The three ways to list a job's hosts, each giving one {@link HostSpec} per rank in rank order:
 *
 * <ul>
 *   <li>{@code --hosts h1,h2:47010,h1/4}: entries {@code host} or {@code host:port}, each one slot, or with
 *       {@code /N} N slots (Open MPI's {@code host:N} cannot be copied: the colon is our port); a host may repeat
 *       (several ranks there, each on its own port);</li>
 *   <li>{@code --hostfile FILE}: Open MPI's form, one {@code host[:port] [slots=N] [max_slots=M]} a line, {@code #}
 *       comments and blank lines allowed; {@code slots=N} gives N ranks there (max_slots is accepted and ignored);</li>
 *   <li>{@code --hosts-from slurm}: {@code SLURM_JOB_NODELIST} expanded ({@link SlurmHostlist}), one rank per node,
 *       or {@code SLURM_TASKS_PER_NODE} ranks per node when that is set.</li>
 * </ul>
 *
 * Syntax of the hosts themselves is judged later by {@link HostPlan}; this class only splits. Every fault is a
 * {@link LauncherException} of exit status 2 naming where it is.
 */
public final class HostSources {
    /** The variable {@code --hosts-from slurm} reads. */
    public static final String SLURM_NODELIST = "SLURM_JOB_NODELIST";
    /** Optional per-node rank counts for {@code --hosts-from slurm}. */
    public static final String SLURM_TASKS_PER_NODE = "SLURM_TASKS_PER_NODE";
    /** Longest hostfile read: far above any real one, small enough to read whole. */
    public static final long MAX_HOSTFILE_BYTES = 4L * 1024 * 1024;

    private HostSources() {
    }

    /** {@code --hosts}: comma-separated {@code host} or {@code host:port}, each with an optional {@code /N}. */
    public static List<HostSpec> fromList(String list) {
        List<HostSpec> specs = new ArrayList<>();
        String[] entries = list.split(",", -1);
        for (int i = 0; i < entries.length; i++) {
            String origin = "--hosts entry " + (i + 1);
            String entry = entries[i].strip();
            if (entry.isEmpty()) {
                throw LauncherException.usage(origin + " is empty");
            }
            int slash = entry.lastIndexOf('/');
            int slots = slash < 0 ? 1 : count(entry.substring(slash + 1), origin + " '" + entry + "': slots");
            addSlots(specs, entry(slash < 0 ? entry : entry.substring(0, slash), origin), slots, origin);
        }
        return specs;
    }

    /** {@code --hostfile FILE} in Open MPI's form. */
    public static List<HostSpec> fromHostfile(Path file) {
        List<String> lines = readHostfile(file);
        List<HostSpec> specs = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String origin = "hostfile " + file + " line " + (i + 1);
            String line = lines.get(i);
            int hash = line.indexOf('#');
            String content = (hash < 0 ? line : line.substring(0, hash)).strip();
            if (content.isEmpty()) {
                continue;
            }
            String[] fields = content.split("\\s+");
            HostSpec first = entry(fields[0], origin);
            int slots = 1;
            for (int f = 1; f < fields.length; f++) {
                String field = fields[f];
                if (field.startsWith("slots=")) {
                    slots = count(field.substring("slots=".length()), origin + ": slots");
                } else if (field.startsWith("max_slots=") || field.startsWith("max-slots=")) {
                    count(field.substring(field.indexOf('=') + 1), origin + ": max_slots");
                } else {
                    throw LauncherException.usage(origin + ": unknown field '" + field
                            + "', expected slots=N or max_slots=N");
                }
            }
            addSlots(specs, first, slots, origin);
        }
        if (specs.isEmpty()) {
            throw LauncherException.usage("hostfile " + file + " lists no host");
        }
        return specs;
    }

    /** {@code --hosts-from slurm}: the job's node list, one rank per node or per task. */
    public static List<HostSpec> fromSlurm(Map<String, String> env) {
        String nodelist = env.get(SLURM_NODELIST);
        if (nodelist == null || nodelist.isBlank()) {
            throw LauncherException.usage("--hosts-from slurm: " + SLURM_NODELIST
                    + (nodelist == null ? " is not set" : " is set but empty")
                    + " (run inside a Slurm allocation, or use --hosts)");
        }
        List<String> nodes = SlurmHostlist.expand(nodelist.strip());
        String tasks = env.get(SLURM_TASKS_PER_NODE);
        List<Integer> counts = tasks == null || tasks.isBlank() ? null : SlurmHostlist.tasksPerNode(tasks.strip());
        if (counts != null && counts.size() != nodes.size()) {
            throw LauncherException.usage("--hosts-from slurm: " + SLURM_TASKS_PER_NODE + "='" + tasks.strip()
                    + "' gives " + counts.size() + " nodes, " + SLURM_NODELIST + " has " + nodes.size());
        }
        List<HostSpec> specs = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            String origin = SLURM_NODELIST + " node " + (i + 1);
            int n = counts == null ? 1 : counts.get(i);
            checkCount(specs.size() + (long) n, origin);
            for (int s = 0; s < n; s++) {
                specs.add(entry(nodes.get(i), origin));
            }
        }
        return specs;
    }

    /**
     * {@code slots} ranks at {@code first}'s host; with a port, ports port, port + 1, ... (a port past 65535 is refused
     * by the plan).
     */
    private static void addSlots(List<HostSpec> specs, HostSpec first, int slots, String origin) {
        checkCount(specs.size() + (long) slots, origin);
        for (int s = 0; s < slots; s++) {
            int port = first.hasPort() ? first.port() + s : HostSpec.NO_PORT;
            specs.add(new HostSpec(first.host(), port, origin));
        }
    }

    /** {@code host} or {@code host:port}; anything with '[' or two colons is left whole for the IPv6 refusal. */
    static HostSpec entry(String text, String origin) {
        int colon = text.indexOf(':');
        if (colon < 0 || text.indexOf('[') >= 0 || text.indexOf(':', colon + 1) >= 0) {
            return new HostSpec(text, HostSpec.NO_PORT, origin);
        }
        String host = text.substring(0, colon);
        String portText = text.substring(colon + 1);
        if (host.isEmpty()) {
            throw LauncherException.usage(origin + " '" + text + "' has no host before ':'");
        }
        return new HostSpec(host, port(portText, origin + " '" + text + "'"), origin);
    }

    private static int port(String text, String where) {
        if (text.isEmpty() || text.length() > 5 || !text.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw LauncherException.usage(where + ": port '" + text + "' is not a number 1..65535");
        }
        int port = Integer.parseInt(text);
        if (port < 1 || port > 65535) {
            throw LauncherException.usage(where + ": port " + port + " is not in 1..65535");
        }
        return port;
    }

    private static int count(String text, String where) {
        if (text.isEmpty() || text.length() > 4 || !text.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw LauncherException.usage(where + "='" + text + "' is not a number 1.." + Limits.MAX_SIZE);
        }
        int n = Integer.parseInt(text);
        if (n < 1 || n > Limits.MAX_SIZE) {
            throw LauncherException.usage(where + "=" + n + " is not in 1.." + Limits.MAX_SIZE);
        }
        return n;
    }

    private static void checkCount(long ranks, String origin) {
        if (ranks > Limits.MAX_SIZE) {
            throw LauncherException.usage(origin + ": more than " + Limits.MAX_SIZE + " ranks");
        }
    }

    /**
     * The hostfile's lines. Only a regular file is opened (a FIFO or device would block or never end), at most
     * {@link #MAX_HOSTFILE_BYTES} + 1 bytes are read whatever the file claims, and text that is not UTF-8 is
     * refused as such.
     */
    private static List<String> readHostfile(Path file) {
        String what = "hostfile " + file;
        if (Files.isDirectory(file)) {
            throw LauncherException.usage(what + " is a directory, expected a regular file");
        }
        if (Files.exists(file) && !Files.isRegularFile(file)) {
            throw LauncherException.usage(what + " is not a regular file (a FIFO, socket or device), expected a"
                    + " regular file");
        }
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes((int) MAX_HOSTFILE_BYTES + 1);
        } catch (NoSuchFileException e) {
            throw LauncherException.usage(what + " does not exist");
        } catch (IOException e) {
            throw LauncherException.usage(what + " cannot be read: " + e.getMessage());
        }
        if (bytes.length > MAX_HOSTFILE_BYTES) {
            throw LauncherException.usage(what + " is larger than " + MAX_HOSTFILE_BYTES + " bytes");
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString().lines().toList();
        } catch (CharacterCodingException e) {
            throw LauncherException.usage(what + " is not UTF-8 text (a binary file?)");
        }
    }
}
