package org.sperli.launcher.exit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.sperli.ErrorCode;
import org.sperli.jobspec.RankExit;

/**
 * The README's tables of exit statuses and H codes ("Errors and exit statuses") are the code's: every launcher status
 * of {@link ExitCodes} with its description, every rank status of {@link RankExit} with its meaning and the codes
 * that give it, and every {@link ErrorCode} with its meaning and its rank status. A status or code added, removed or
 * reworded in the code fails here until the README says the same.
 */
class ReadmeExitTableTest {
    private static final Path README = Path.of("..", "README.md");
    /** A table row: the cells between the outer bars, trimmed. */
    private static final Pattern ROW = Pattern.compile("^\\|(.*)\\|\\s*$", Pattern.MULTILINE);

    @Test
    void launcherExitTableListsEveryStatusWithItsDescription() throws IOException {
        Map<String, String> documented = new LinkedHashMap<>();
        for (List<String> row : rows(section("### Launcher exit statuses"), 2)) {
            assertEquals(null, documented.put(row.get(0), row.get(1)), "status listed twice: " + row.get(0));
        }
        Map<String, String> code = new LinkedHashMap<>();
        ExitCodes.descriptions().forEach((status, description) -> code.put(status.strip(), description));
        assertEquals(code, documented);
    }

    @Test
    void rankExitTableListsEveryStatusWithItsMeaningAndCodes() throws IOException {
        Map<Integer, List<String>> documented = new TreeMap<>();
        for (List<String> row : rows(section("### Rank exit statuses"), 3)) {
            int status = Integer.parseInt(row.get(0));
            assertEquals(null, documented.put(status, row.subList(1, 3)), "status listed twice: " + status);
        }
        Map<Integer, List<String>> code = new TreeMap<>();
        for (int status = 0; RankExit.meaning(status) != null; status++) {
            List<String> codes = new ArrayList<>();
            for (ErrorCode c : ErrorCode.values()) {
                if (RankExit.forCode(c) == status) {
                    codes.add(c.name());
                }
            }
            code.put(status, List.of(RankExit.meaning(status), codes.isEmpty() ? "-" : String.join(", ", codes)));
        }
        assertEquals(RankExit.OPERATOR_STOP + 1, code.size(), "RankExit.meaning has a gap");
        assertEquals(code, documented);
    }

    @Test
    void errorCodeTableListsEveryCodeWithItsMeaningAndRankStatus() throws IOException {
        Map<ErrorCode, List<String>> documented = new TreeMap<>();
        for (List<String> row : rows(section("### Error codes"), 3)) {
            ErrorCode code = ErrorCode.valueOf(row.get(0));
            assertEquals(null, documented.put(code, row.subList(1, 3)), "code listed twice: " + code);
        }
        assertEquals(List.of(ErrorCode.values()), new ArrayList<>(documented.keySet()));
        for (ErrorCode code : ErrorCode.values()) {
            String words = documented.get(code).get(0);
            assertTrue(startsWithWords(words, code.meaning()),
                    code + ": the README's '" + words + "' does not begin with the code's meaning '" + code.meaning()
                            + "'");
            assertEquals(String.valueOf(RankExit.forCode(code)), documented.get(code).get(1), code + ": rank status");
        }
    }

    /** Whether {@code words} is {@code meaning}, or {@code meaning} followed by more words after a word boundary. */
    static boolean startsWithWords(String words, String meaning) {
        return words.startsWith(meaning)
                && (words.length() == meaning.length() || !Character.isLetterOrDigit(words.charAt(meaning.length())));
    }

    /** The README's text from {@code heading} to the next heading. */
    private static String section(String heading) throws IOException {
        String text = Files.readString(README, StandardCharsets.UTF_8);
        int start = text.indexOf("\n" + heading + "\n");
        assertTrue(start >= 0, "README.md has no section '" + heading + "'");
        int end = text.indexOf("\n#", start + heading.length() + 1);
        return end < 0 ? text.substring(start) : text.substring(start, end);
    }

    /** The body rows of the section's table, each with exactly {@code columns} cells (header and rule left out). */
    private static List<List<String>> rows(String section, int columns) {
        List<List<String>> rows = new ArrayList<>();
        Matcher m = ROW.matcher(section);
        boolean header = true;
        while (m.find()) {
            List<String> cells = new ArrayList<>();
            for (String cell : m.group(1).split("\\|", -1)) {
                cells.add(cell.strip());
            }
            assertEquals(columns, cells.size(), "row '" + m.group() + "'");
            if (header) {
                header = false;
            } else if (!cells.get(0).startsWith("---")) {
                rows.add(cells);
            }
        }
        assertTrue(!rows.isEmpty(), "no table rows in:\n" + section);
        return rows;
    }
}
