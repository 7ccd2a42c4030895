package org.sperli.launcher.command;

import org.sperli.launcher.job.HostPlan;
import org.sperli.protocol.Limits;
import picocli.CommandLine.Option;

/** Options every command that starts ranks shares: the rank command, ports, silence limit, output, verbosity. */
public final class LaunchOptions {
    @Option(names = "--rankd", paramLabel = "CMD",
            description = "Command that starts a rank, local and SSH alike (default: this launcher's java with"
                    + " org.sperli.rankd.Main locally, sperli-rankd over SSH, staged where a host has none). It gets"
                    + " [--deny-hosts FILE] --jar-sha256 HEX [--checkpoint-dir DIR] [--tls-engine NAME] JAR [job args],"
                    + " the description on stdin, and must use the rank exit codes (protocol section 13.1).")
    String rankd;

    @Option(names = "--remote-java", paramLabel = "PATH",
            description = "The java that runs ranks on an SSH host without sperli-rankd on its PATH, where the"
                    + " launcher stages the rank daemon's jars into ~/.cache/sperli/lib (default: $JAVA_HOME/bin/java,"
                    + " else java on the host's PATH; Java 17 or newer).")
    String remoteJava;

    @Option(names = "--tls-engine", paramLabel = "NAME",
            description = "Crypto under TLS of every rank: auto (default: accp where it loads),"
                    + " jdk (the JDK's own, pure Java) or accp (AWS-LC, native). Also SPERLI_TLS_ENGINE.")
    String tlsEngine;

    @Option(names = "--collectives", paramLabel = "SHAPE",
            description = "Shape of the collectives: mesh (default: used when every rank offers it; results equal"
                    + " the star's to the bit) or star (the v1 star around the root, forced by every rank not"
                    + " offering the mesh).")
    String collectives;

    @Option(names = "--port-base", paramLabel = "P", defaultValue = "" + HostPlan.DEFAULT_PORT_BASE,
            description = "First port of ranks without host:port; ranks on one host get P, P+1, ... (default:"
                    + " ${DEFAULT-VALUE}).")
    int portBase;

    @Option(names = "--silence-ms", paramLabel = "N",
            description = "A peer silent this long is lost, " + Limits.MIN_SILENCE_MS + ".." + Limits.MAX_SILENCE_MS
                    + " (default: " + Limits.DEFAULT_SILENCE_MS + ", longer for more than 4 local ranks per core or"
                    + " more than 1024 ranks). Raise it for ranks that may stall.")
    Long silenceMs;

    @Option(names = "--no-prefix", description = "Do not prefix rank output lines with [rank N].")
    boolean noPrefix;

    @Option(names = {"-v", "--verbose"},
            description = "Show what the launcher does, and stack traces on errors (also SPERLI_DEBUG=1).")
    boolean verbose;
}
