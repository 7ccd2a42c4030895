package org.sperli.rankd;

import java.time.Instant;

/**
 * The JVM of {@link RankArchiveTest}: with an argument, a rank at its end, its archive's base path in the system
 * property ({@code made=true} when it wrote the archive); without, a JVM that only says it started.
 */
public final class RankArchiveChild {
    private RankArchiveChild() {
    }

    public static void main(String[] args) {
        if (args.length == 0) {
            System.out.println("mapped");
            return;
        }
        boolean made = RankArchive.ofThisJvm(System.err::println).orElseThrow().makeIfMissing(Instant.now());
        System.out.println("made=" + made);
    }
}
