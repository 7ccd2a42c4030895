package org.sperli.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The layer diagram of {@code docs/architecture.md} cannot drift from {@link ArchitectureTest#FLOORS}: it is the
 * output of {@code scripts/architecture-diagram}, which reads that list, between two marker lines. Where python3 is
 * installed the test runs the script and compares byte for byte; without it, it still checks that the diagram shows
 * every floor with its packages, highest first.
 */
class ArchitectureDiagramTest {
    private static final String BEGIN =
            "<!-- architecture-diagram: begin (drawn by scripts/architecture-diagram --write; do not edit) -->";
    private static final String END = "<!-- architecture-diagram: end -->";
    private static final String FIX = "; redraw it with scripts/architecture-diagram --write";

    private static Path root() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isRegularFile(dir.resolve("scripts/architecture-diagram"))) {
            dir = dir.getParent();
        }
        assertTrue(dir != null, "no scripts/architecture-diagram above " + Path.of("").toAbsolutePath());
        return dir;
    }

    /** The lines of the fenced block between the markers, as the script prints them. */
    private static String documented(Path root) throws IOException {
        String text = Files.readString(root.resolve("docs/architecture.md"), StandardCharsets.UTF_8);
        int begin = text.indexOf(BEGIN + "\n```text\n");
        int end = text.indexOf("```\n" + END, begin);
        assertTrue(begin >= 0 && end > begin, "docs/architecture.md has no diagram between " + BEGIN + " and " + END);
        return text.substring(begin + BEGIN.length() + "\n```text\n".length(), end);
    }

    @Test
    void theDiagramShowsEveryFloorWithItsPackagesHighestFirst() throws IOException {
        List<String> rows = new ArrayList<>();
        for (String line : documented(root()).split("\n")) {
            int bar = line.indexOf('│');
            if (bar >= 0) {
                rows.add(line.substring(bar + 1, line.lastIndexOf('│')).trim());
            }
        }
        List<String> expected = new ArrayList<>();
        for (int floor = ArchitectureTest.FLOORS.size() - 1; floor >= 0; floor--) {
            List<String> names = new ArrayList<>();
            for (String p : ArchitectureTest.FLOORS.get(floor)) {
                names.add(p.startsWith("org.sperli.") ? p.substring("org.sperli.".length()) : p);
            }
            expected.add(String.join("   ", names));
        }
        assertEquals(expected, rows, "the floors of docs/architecture.md are not ArchitectureTest's" + FIX);
    }

    @Test
    void theDiagramIsWhatTheScriptDraws() throws Exception {
        assumeTrue(python3(), "python3 is not installed: the diagram's floors are checked, its drawing is not");
        Path root = root();
        Process p = new ProcessBuilder("python3", "scripts/architecture-diagram").directory(root.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "scripts/architecture-diagram did not end within 60 s");
        assertEquals(0, p.exitValue(), "scripts/architecture-diagram failed");
        assertEquals(new String(out, StandardCharsets.UTF_8), documented(root),
                "docs/architecture.md shows another diagram than scripts/architecture-diagram draws" + FIX);
    }

    private static boolean python3() {
        try {
            Process p = new ProcessBuilder("python3", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
