package org.sperli.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Main code of {@code api}, {@code common}, {@code rankd} and {@code launcher} reads time only through its process's
 * one clock ({@code org.sperli.jvm.Clock}), which tests can move: no direct read of the system's clocks outside
 * {@code Clock.SYSTEM} itself. A timer that read {@code System.nanoTime} could only be tested by sleeping.
 */
class MainCodeReadsTheClockTest {
    private static final Path THE_CLOCK = Path.of("org", "sperli", "jvm", "Clock.java");
    private static final Pattern DIRECT_READ = Pattern.compile("System\\s*(\\.|::)\\s*(nanoTime|currentTimeMillis)"
            + "|Instant\\s*\\.\\s*now\\s*\\(|InstantSource\\s*\\.\\s*system\\s*\\(|java\\.time\\.Clock\\s*\\.\\s*system");

    @Test
    void noMainCodeReadsTheSystemsClocksButTheClockItself() throws IOException {
        List<String> reads = new ArrayList<>();
        for (MainSources.Source main : MainSources.all()) {
            Path source = main.file();
            if (main.relative().equals(THE_CLOCK)) {
                continue;
            }
            List<String> lines = Files.readAllLines(source, StandardCharsets.UTF_8);
            for (int i = 0; i < lines.size(); i++) {
                String code = lines.get(i).strip();
                if (code.startsWith("*") || code.startsWith("//") || code.startsWith("/*")) {
                    continue;
                }
                Matcher m = DIRECT_READ.matcher(code);
                if (m.find()) {
                    reads.add(source + ":" + (i + 1) + ": " + m.group());
                }
            }
        }
        assertEquals(List.of(), reads, "read time through the process's Clock (org.sperli.jvm.Clock)");
    }
}
