package org.sperli.rankd;

import java.time.Instant;

/**
 * The JVM of {@link RankArchiveTest}: with a base path, a rank at its end ({@code made=true} when it wrote the
 * archive); without, a JVM that only says it started.
 */
public final class RankArchiveChild {
    private RankArchiveChild() {
    }

    public static void main(String[] args) {
        if (args.length == 0) {
            System.out.println("mapped");
            return;
        }
        boolean made = new RankArchive(java.nio.file.Path.of(args[0]), System.err::println)
                .makeIfMissing(Instant.now());
        System.out.println("made=" + made);
    }
}
