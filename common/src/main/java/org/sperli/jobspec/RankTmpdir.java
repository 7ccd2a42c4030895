package org.sperli.jobspec;

/**
 * The temporary directory a rank is given by whoever starts it (protocol section 13.1, "Environment"). A host agent
 * that starts ranks gives each one a directory of its own, so that what a killed rank leaves there (its PEM
 * directory, private key included; ACCP's unpacked native library) can be removed with that directory. The Java
 * rankd makes it its {@code java.io.tmpdir} before anything reads that.
 */
public final class RankTmpdir {
    /** The environment variable that names the directory; a rank uses it when it names an existing directory. */
    public static final String VARIABLE = "SPERLI_RANK_TMPDIR";

    private RankTmpdir() {
    }
}
