package org.sperli.launcher.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code --timestamp-output}: ISO-8601 UTC with milliseconds, fixed width, before everything else of a rank line. */
class LineTimestampsTest {
    private static final Instant AT = Instant.parse("2026-12-01T09:15:02.047Z");

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private Console console(boolean prefix, InstantSource clock) {
        return new Console(new PrintWriter(out, true), new PrintWriter(err, true), prefix, false, false,
                new LineTimestamps(clock));
    }

    @Test
    void theStampIsUtcWithMillisecondsAndAFixedWidth() {
        assertEquals("2026-12-01T09:15:02.047Z", new LineTimestamps(InstantSource.fixed(AT)).now());
        // ISO_INSTANT would print 09:15:02Z here and shift the columns.
        assertEquals("2026-12-01T09:15:02.000Z",
                new LineTimestamps(InstantSource.fixed(Instant.parse("2026-12-01T09:15:02Z"))).now());
    }

    @Test
    void eachRankLineStartsWithTheStampThenThePrefix() {
        Console console = console(true, InstantSource.fixed(AT));
        console.rankLine(1, 3, false, "hello");
        console.rankLine(1, 0, true, "H1613 rank 0: peer 3 lost");
        assertEquals("2026-12-01T09:15:02.047Z [rank 3] hello\n", out.toString());
        assertEquals("2026-12-01T09:15:02.047Z [rank 0] H1613 rank 0: peer 3 lost\n", err.toString());
    }

    @Test
    void withoutPrefixTheStampStillStartsTheLineAndLauncherNotesAreNotStamped() {
        Console console = console(false, InstantSource.fixed(AT));
        console.rankLine(1, 0, false, "hello");
        console.note("restarting");
        assertEquals("2026-12-01T09:15:02.047Z hello\n", out.toString());
        assertEquals("sperli: restarting\n", err.toString());
    }

    @Test
    void theCopyGetsTheSameStampedLineWithoutThePrefix() {
        List<String> copied = new ArrayList<>();
        Console console = console(true, InstantSource.fixed(AT));
        console.copyRankLinesTo(new RankLineCopy() {
            @Override
            public void opened(long incarnation, int rank, boolean stderr) {
                copied.add("opened " + incarnation + " " + rank + " " + stderr);
            }

            @Override
            public void line(long incarnation, int rank, boolean stderr, String line) {
                copied.add(incarnation + " " + rank + " " + stderr + " " + line);
            }
        });
        console.rankStreamOpened(2, 3, false);
        console.rankLine(2, 3, false, "hello");
        assertEquals(List.of("opened 2 3 false", "2 3 false 2026-12-01T09:15:02.047Z hello"), copied);
    }

    @Test
    void withoutTimestampsLinesAreAsBefore() {
        Console console = new Console(new PrintWriter(out, true), new PrintWriter(err, true), true, false, false);
        console.rankLine(1, 3, false, "hello");
        assertEquals("[rank 3] hello\n", out.toString());
    }
}
