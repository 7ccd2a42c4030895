package org.sperli.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sperli.launcher.command.VersionProvider;
import org.sperli.rankd.RankdArguments;

/** The man pages and the completion come from the launcher's own command model, and the rankd page keeps up. */
class CommandDocsTest {
    private static final Pattern LONG_OPTION = Pattern.compile("--[a-z][a-z0-9-]*");

    @TempDir
    Path dir;

    @Test
    void writesOnePagePerCommandAndSubcommand() throws IOException {
        CommandDocs.writeManPages(dir);
        try (Stream<Path> files = Files.list(dir)) {
            Set<String> names = files.map(f -> f.getFileName().toString()).collect(Collectors.toCollection(TreeSet::new));
            assertEquals(Set.of("sperli.adoc", "sperli-run.adoc", "sperli-demo.adoc",
                    "sperli-inspect-checkpoint.adoc", "sperli-help.adoc"), names);
        }
    }

    @Test
    void bracketsInAParameterLabelAreWrittenSoAsciidoctorKeepsThem() {
        assertEquals("[*-x*=_VAR{startsb}=VALUE{endsb}_]... [*--hosts*=_H{startsb}:PORT{endsb},..._ | x]",
                CommandDocs.escapeLabelBrackets("[*-x*=_VAR[=VALUE]_]... [*--hosts*=_H[:PORT],..._ | x]"));
        assertEquals("_job.jar_ [_ARG_...] SPERLI_REFUSED_HOSTS",
                CommandDocs.escapeLabelBrackets("_job.jar_ [_ARG_...] SPERLI_REFUSED_HOSTS"));
    }

    @Test
    void pagesNameTheVersionAndNotTheBuildMachinesEngine() throws IOException {
        CommandDocs.writeManPages(dir);
        String run = Files.readString(dir.resolve("sperli-run.adoc"), StandardCharsets.UTF_8);
        assertTrue(run.contains(":mansource: sperli " + VersionProvider.version() + "\n"), run);
        assertFalse(run.contains("TLS engine:"), run);
        assertTrue(run.contains("--hosts"), run);
    }

    @Test
    void completionDefinesTheSperliCommandAndItsSubcommands() throws IOException {
        Path file = dir.resolve("completion/sperli");
        CommandDocs.writeCompletion(file);
        String script = Files.readString(file, StandardCharsets.UTF_8);
        assertTrue(script.contains("\ncomplete -F _complete_sperli -o default sperli "), script);
        for (String sub : new String[] {"run", "demo", "inspect-checkpoint"}) {
            assertTrue(script.contains(sub), "subcommand " + sub);
        }
    }

    /** sperli-rankd is not a picocli command, so its page is written by hand: it must name every option rankd takes. */
    @Test
    void rankdPageNamesEveryOptionOfTheRankdUsage() throws IOException {
        String page = Files.readString(Path.of("src/main/man/sperli-rankd.adoc"), StandardCharsets.UTF_8);
        Matcher options = LONG_OPTION.matcher(RankdArguments.USAGE);
        int named = 0;
        while (options.find()) {
            assertTrue(page.contains("*" + options.group() + "*"), options.group() + " is not on the rankd page");
            named++;
        }
        assertEquals(7, named, RankdArguments.USAGE);
    }
}
