package org.sperli.launcher.slurm;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Short questions to Slurm's and MUNGE's programs, each bounded in time and output: a hung controller or daemon
 * makes an answer empty, never the launcher hang.
 */
final class SlurmTools {
    static final long WAIT_MS = 10_000;
    static final int MAX_OUTPUT = 1 << 20;

    private SlurmTools() {
    }

    /**
     * The launcher's SLURM_ variables (SLURM_CONF, SLURM_JOB_ID, ...): Slurm's programs find the cluster and the job
     * by them, and the launcher's environment may be given to it rather than inherited (tests).
     */
    static Map<String, String> slurmVariables(Map<String, String> env) {
        Map<String, String> slurm = new HashMap<>();
        env.forEach((name, value) -> {
            if (name.startsWith("SLURM_")) {
                slurm.put(name, value);
            }
        });
        return slurm;
    }

    /**
     * The standard output of {@code argv}, run with the SLURM_ variables of {@code env}, when it exits 0 within
     * {@link #WAIT_MS}, else empty.
     */
    static Optional<String> output(List<String> argv, String stdinOrNull, Map<String, String> env) {
        Process process;
        try {
            List<String> resolved = new ArrayList<>(argv);
            resolved.set(0, program(argv.get(0), env));
            ProcessBuilder builder = new ProcessBuilder(resolved).redirectError(ProcessBuilder.Redirect.DISCARD);
            builder.environment().putAll(slurmVariables(env));
            process = builder.start();
        } catch (IOException e) {
            return Optional.empty();
        }
        try (InputStream out = process.getInputStream()) {
            if (stdinOrNull != null) {
                process.getOutputStream().write(stdinOrNull.getBytes(StandardCharsets.US_ASCII));
            }
            process.getOutputStream().close();
            byte[] bytes = out.readNBytes(MAX_OUTPUT);
            if (!process.waitFor(WAIT_MS, TimeUnit.MILLISECONDS) || process.exitValue() != 0) {
                process.destroyForcibly();
                return Optional.empty();
            }
            return Optional.of(new String(bytes, StandardCharsets.UTF_8));
        } catch (IOException e) {
            process.destroyForcibly();
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            return Optional.empty();
        }
    }

    /**
     * {@code name} as the launcher's PATH finds it (the launcher's environment may be given to it rather than
     * inherited), or the bare name when that PATH has no such program or is not set.
     */
    static String program(String name, Map<String, String> env) {
        String path = env.get("PATH");
        if (path == null) {
            return name;
        }
        for (String dir : path.split(":")) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, name);
            if (Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        return name + "-not-on-PATH";
    }

    /** Each node's NodeAddr as {@code scontrol show node -o} gives it; empty where scontrol cannot say. */
    static Map<String, String> nodeAddresses(List<String> nodes, Map<String, String> env) {
        Map<String, String> addresses = new HashMap<>();
        output(List.of("scontrol", "show", "node", "-o", String.join(",", nodes)), null, env).ifPresent(text ->
                text.lines().forEach(line -> {
                    String name = field(line, "NodeName");
                    String address = field(line, "NodeAddr");
                    if (name != null && address != null) {
                        addresses.put(name, address);
                    }
                }));
        return addresses;
    }

    /** The value of {@code key=} in a line of {@code key=value} words, or null. */
    static String field(String line, String key) {
        for (String word : line.split(" ")) {
            if (word.startsWith(key + "=")) {
                return word.substring(key.length() + 1);
            }
        }
        return null;
    }

    /** Whether MUNGE works here: a credential made and decoded again. */
    static boolean mungeWorks(Map<String, String> env) {
        return output(List.of("munge", "-n"), null, env)
                .flatMap(credential -> output(List.of("unmunge"), credential, env)).isPresent();
    }

    /** The step id of the step named {@code name} of job {@code job}, as squeue lists it, or empty. */
    static Optional<String> stepId(String job, String name, Map<String, String> env) {
        return output(List.of("squeue", "-h", "-s", "-j", job, "-o", "%i %j"), null, env).flatMap(text ->
                text.lines().map(String::strip).filter(l -> l.endsWith(" " + name))
                        .map(l -> l.substring(0, l.indexOf(' ')))
                        .filter(id -> id.startsWith(job + "."))
                        .map(id -> id.substring(job.length() + 1)).findFirst());
    }
}
