package org.sperli.launcher.command;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.sperli.launcher.demo.HelloJob;
import org.sperli.launcher.demo.JobJars;
import org.sperli.launcher.exit.LauncherException;
import org.sperli.launcher.job.HostSpec;
import org.sperli.launcher.job.SlotFill;
import org.sperli.launcher.report.Console;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code sperli demo}: a job of 4 local ranks (by default) on free loopback ports, with the jar given or, without one,
 * a jar of the launcher's own {@link HelloJob} written to a temporary directory that is removed afterwards.
 */
@Command(name = "demo", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Runs a demo job on local ranks: the jar given (e.g. the examples' hello jar) or a built-in"
                + " hello job.")
public final class DemoCommand implements Callable<Integer> {
    @ParentCommand
    private SperliCommand parent;

    @Spec
    private CommandSpec spec;

    @Option(names = "--jar", paramLabel = "JAR", description = "Job jar to run (default: the built-in hello job).")
    private Path jar;

    @Option(names = "--ranks", paramLabel = "N", defaultValue = "4",
            description = "Number of local ranks, 1..64 (default: ${DEFAULT-VALUE}).")
    private int ranks;

    @Mixin
    private LaunchOptions launch;

    @Override
    public Integer call() throws IOException {
        if (ranks < 1 || ranks > 64) {
            throw LauncherException.usage("--ranks " + ranks + " is not in 1..64");
        }
        var environment = parent.environment();
        Console console = new Console(spec.commandLine().getOut(), spec.commandLine().getErr(), !launch.noPrefix,
                environment.terminal(), launch.verbose || environment.debug());
        List<HostSpec> hosts = LocalHosts.specs(ranks,
                spec.commandLine().getParseResult().hasMatchedOption("--port-base"), "demo");
        Path temporary = jar == null ? Files.createTempDirectory("sperli-demo-") : null;
        try {
            Path job = jar != null ? jar : JobJars.write(temporary.resolve("hello.jar"), HelloJob.class);
            console.note("demo: " + ranks + " local ranks running " + job.getFileName());
            JobRunner.Request request = new JobRunner.Request(SlotFill.all(hosts), launch, job);
            return JobRunner.run(request, environment, parent.jobControl(), console);
        } finally {
            if (temporary != null) {
                deleteTree(temporary);
            }
        }
    }

    private static void deleteTree(Path root) {
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException | UncheckedIOException e) {
            // A leftover temp directory is untidy but harmless; the job's status matters more.
        }
    }
}
