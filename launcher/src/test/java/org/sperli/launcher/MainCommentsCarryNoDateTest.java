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
 * No comment in the main code of {@code api}, {@code common}, {@code rankd} and {@code launcher} carries a date: a
 * dated measurement ("in December 2026 ... 0.94 of the time") goes stale unseen in a class comment, so figures live in
 * docs/performance.md with their date, machine and command, and a comment keeps the why and points there. A date is a
 * month with its year ({@code December 2026}, {@code Dec 2026}) or an ISO date ({@code 2026-12}, {@code 2026-12-01}).
 * Text quoted as code ({@code {@code ...}}, such as an example of {@code java -version} output or of a timestamp) is
 * not a claim of the comment and is left out; string literals are not comments.
 */
class MainCommentsCarryNoDateTest {
    private static final Pattern MONTH_AND_YEAR = Pattern.compile("\\b(January|February|March|April|May|June|July"
            + "|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\\.?,?\\s+"
            + "(?:\\*\\s+)?20\\d\\d\\b");
    private static final Pattern ISO_DATE = Pattern.compile("\\b20\\d\\d-(0[1-9]|1[0-2])(-\\d\\d)?\\b");

    @Test
    void noMainCodeCommentCarriesADate() throws IOException {
        List<String> dated = new ArrayList<>();
        for (MainSources.Source main : MainSources.all()) {
            Path source = main.file();
            String text = Files.readString(source, StandardCharsets.UTF_8);
            for (Comment comment : comments(text)) {
                String claims = withoutCode(comment.text());
                for (Pattern date : List.of(MONTH_AND_YEAR, ISO_DATE)) {
                    Matcher m = date.matcher(claims);
                    while (m.find()) {
                        dated.add(source + ":" + comment.line() + ": '" + m.group() + "'");
                    }
                }
            }
        }
        assertEquals(List.of(), dated, "comments with a date: move the figure to docs/performance.md and point there");
    }

    @Test
    void theRulesFindDatesAndLeaveCodeAndStringsAlone() {
        String source = """
                /** Measured in December 2026 on this machine. */
                class A {
                    // took 1.2 s (2026-12-01)
                    String s = "in May 2026 // not a comment";
                    /** {@code openjdk version "17.0.9" 2023-10-17} is 17; ports 2000..3600000. */
                    /* Dec.
                     * 2026 */
                }
                """;
        List<String> found = new ArrayList<>();
        for (Comment comment : comments(source)) {
            for (Pattern date : List.of(MONTH_AND_YEAR, ISO_DATE)) {
                Matcher m = date.matcher(withoutCode(comment.text()));
                while (m.find()) {
                    found.add(comment.line() + ":" + m.group().replaceAll("\\s+", " "));
                }
            }
        }
        assertEquals(List.of("1:December 2026", "3:2026-12-01", "6:Dec. * 2026"), found);
    }

    /** A comment's text and the line it starts on (from 1). */
    record Comment(int line, String text) {
    }

    /** The comments of a Java source, outside string, character and text-block literals. */
    static List<Comment> comments(String source) {
        List<Comment> comments = new ArrayList<>();
        int i = 0;
        int line = 1;
        int n = source.length();
        while (i < n) {
            char c = source.charAt(i);
            if (source.startsWith("//", i) || source.startsWith("/*", i)) {
                boolean block = source.charAt(i + 1) == '*';
                int end = block ? source.indexOf("*/", i + 2) : source.indexOf('\n', i);
                end = end < 0 ? n : block ? end + 2 : end;
                String text = source.substring(i, end);
                comments.add(new Comment(line, text));
                line += (int) text.chars().filter(ch -> ch == '\n').count();
                i = end;
            } else if (source.startsWith("\"\"\"", i)) {
                int end = source.indexOf("\"\"\"", i + 3);
                end = end < 0 ? n : end + 3;
                line += (int) source.substring(i, end).chars().filter(ch -> ch == '\n').count();
                i = end;
            } else if (c == '"' || c == '\'') {
                int j = i + 1;
                while (j < n && source.charAt(j) != c && source.charAt(j) != '\n') {
                    j += source.charAt(j) == '\\' ? 2 : 1;
                }
                i = Math.min(j + 1, n);
            } else {
                if (c == '\n') {
                    line++;
                }
                i++;
            }
        }
        return comments;
    }

    /** The comment without its {@code {@code ...}} spans (braces inside them balanced, as Javadoc wants them). */
    static String withoutCode(String comment) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < comment.length()) {
            if (comment.startsWith("{@code", i)) {
                int depth = 0;
                int j = i;
                do {
                    char ch = comment.charAt(j);
                    depth += ch == '{' ? 1 : ch == '}' ? -1 : 0;
                    j++;
                } while (depth > 0 && j < comment.length());
                out.append(' ');
                i = j;
            } else {
                out.append(comment.charAt(i++));
            }
        }
        return out.toString();
    }
}
