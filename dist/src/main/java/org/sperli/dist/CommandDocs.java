package org.sperli.dist;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.sperli.launcher.command.LaunchEnvironment;
import org.sperli.launcher.command.SperliCommand;
import org.sperli.launcher.command.VersionProvider;
import picocli.AutoComplete;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine;
import picocli.codegen.docgen.manpage.ManPageGenerator;

/**
 * Writes, at build time, the man pages of {@code sperli} and every subcommand (AsciiDoc, which Asciidoctor's manpage
 * backend turns into man(1) pages) and the bash/zsh completion script, both from the picocli model the launcher runs
 * ({@link SperliCommand#commandLine}), so that neither can drift from the options and exit statuses of the build
 * they ship with.
 *
 * <p>The pages name the version only: the second line of {@code --version}, the TLS engine, belongs to the host
 * that runs it, not to the machine that built the pages.
 */
public final class CommandDocs {
    /** The command the completion is for: the name on the operator's PATH. */
    static final String COMMAND = "sperli";
    /**
     * Columns of picocli's synopsis in the pages: wide enough for one line, which man then fills to the reader's
     * terminal; at picocli's 80 it breaks inside a parameter label and the AsciiDoc markup with it.
     */
    private static final int SYNOPSIS_COLUMNS = 1000;
    /** An italic parameter label that holds a bracket: {@code _H[:PORT],..._}. */
    private static final Pattern LABEL = Pattern.compile("_([^_\\s*]*\\[[^_\\s*]*)_");

    private CommandDocs() {
    }

    /** {@code CommandDocs ADOC_DIR COMPLETION_FILE}. */
    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            throw new IllegalArgumentException("usage: CommandDocs ADOC_DIR COMPLETION_FILE, got " + args.length
                    + " arguments");
        }
        writeManPages(Path.of(args[0]));
        writeCompletion(Path.of(args[1]));
    }

    /** Writes {@code sperli.adoc} and {@code sperli-SUBCOMMAND.adoc} for every subcommand into {@code dir}. */
    static void writeManPages(Path dir) throws IOException {
        CommandSpec top = command().getCommandSpec();
        String[] version = {COMMAND + " " + VersionProvider.version()};
        stampVersion(top, version);
        Files.createDirectories(dir);
        int status = ManPageGenerator.generateManPage(dir.toFile(), null, new boolean[0], true, top);
        if (status != CommandLine.ExitCode.OK) {
            throw new IOException("man pages not written to " + dir + ": picocli's generator returned " + status);
        }
        try (Stream<Path> pages = Files.list(dir)) {
            for (Path page : pages.filter(p -> p.toString().endsWith(".adoc")).toList()) {
                Files.writeString(page, escapeLabelBrackets(Files.readString(page, StandardCharsets.UTF_8)),
                        StandardCharsets.UTF_8);
            }
        }
    }

    /**
     * Brackets inside an italic parameter label ({@code _VAR[=VALUE]_}, {@code _H[:PORT][/N],..._}) written as
     * Asciidoctor's {@code {startsb}} and {@code {endsb}}: left as they are, Asciidoctor reads {@code [=VALUE]} as an
     * attribute list and the label and the markup after it come out mangled.
     */
    static String escapeLabelBrackets(String adoc) {
        return LABEL.matcher(adoc).replaceAll(m -> Matcher.quoteReplacement("_" + m.group(1)
                .replace("[", "{startsb}").replace("]", "{endsb}") + "_"));
    }

    /** Writes the completion script of {@value #COMMAND} to {@code file}. */
    static void writeCompletion(Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, AutoComplete.bash(COMMAND, command()), StandardCharsets.UTF_8);
    }

    /** The launcher's command as {@code main} builds it, in an empty environment and writing nowhere. */
    private static CommandLine command() {
        PrintWriter nowhere = new PrintWriter(Writer.nullWriter());
        CommandLine sperli = SperliCommand.commandLine(nowhere, nowhere, new LaunchEnvironment(Map.of(), false));
        sperli.setUsageHelpWidth(SYNOPSIS_COLUMNS);
        return sperli;
    }

    private static void stampVersion(CommandSpec spec, String[] version) {
        spec.versionProvider(() -> version.clone());
        for (CommandLine sub : spec.subcommands().values()) {
            stampVersion(sub.getCommandSpec(), version);
        }
    }
}
