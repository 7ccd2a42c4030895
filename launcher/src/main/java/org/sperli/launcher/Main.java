package org.sperli.launcher;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import org.sperli.launcher.command.SperliCommand;
import picocli.CommandLine;

/**
 * Entry point of {@code sperli}. The only place that calls {@link System#exit}. A shutdown hook turns Ctrl-C and
 * SIGTERM into stopping every rank of the running job (SIGTERM to each, then a bounded wait, then kill); the JVM then
 * exits with 130 or 143 by itself.
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        Charset charset = Charset.defaultCharset();
        PrintWriter out = new PrintWriter(new OutputStreamWriter(new FileOutputStream(FileDescriptor.out), charset),
                true);
        PrintWriter err = new PrintWriter(new OutputStreamWriter(new FileOutputStream(FileDescriptor.err), charset),
                true);
        CommandLine cl = SperliCommand.commandLine(out, err);
        SperliCommand top = cl.getCommand();
        Runtime.getRuntime().addShutdownHook(new Thread(
                () -> top.jobControl().stopAll(SperliCommand.SHUTDOWN_WAIT), "sperli-shutdown"));
        int code = cl.execute(args);
        out.flush();
        err.flush();
        System.exit(code);
    }
}
