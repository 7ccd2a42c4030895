package org.sperli.launcher.job;

import java.util.ArrayList;
import java.util.List;
import org.sperli.launcher.exit.LauncherException;

/**
 * Command lines as POSIX shells read them, for {@code --rankd CMD}: splitting a command into words (blanks separate,
 * single quotes keep everything, double quotes keep blanks, a backslash escapes the next character) and quoting words
 * for the remote shell that runs an SSH rank's command.
 */
public final class CommandWords {
    private CommandWords() {
    }

    /** The words of {@code command}; refuses an unclosed quote or an empty command (exit status 2). */
    public static List<String> split(String command) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        char quote = 0;
        for (int i = 0; i < command.length(); i++) {
            char c = command.charAt(i);
            if (quote == '\'') {
                if (c == '\'') {
                    quote = 0;
                } else {
                    word.append(c);
                }
            } else if (quote == '"') {
                if (c == '"') {
                    quote = 0;
                } else if (c == '\\' && i + 1 < command.length() && "\"\\$`".indexOf(command.charAt(i + 1)) >= 0) {
                    word.append(command.charAt(++i));
                } else {
                    word.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                inWord = true;
            } else if (c == '\\' && i + 1 < command.length()) {
                word.append(command.charAt(++i));
                inWord = true;
            } else if (Character.isWhitespace(c)) {
                if (inWord) {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
            } else {
                word.append(c);
                inWord = true;
            }
        }
        if (quote != 0) {
            throw LauncherException.usage("command '" + command + "' has an unclosed " + quote + " quote");
        }
        if (inWord) {
            words.add(word.toString());
        }
        if (words.isEmpty()) {
            throw LauncherException.usage("the rank command is empty");
        }
        return words;
    }

    /** {@code word} as one word for a POSIX shell: unchanged when plainly safe, else in single quotes. */
    public static String quote(String word) {
        if (!word.isEmpty() && word.chars().allMatch(CommandWords::safe)) {
            return word;
        }
        return "'" + word.replace("'", "'\\''") + "'";
    }

    private static boolean safe(int c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                || "_-./:=,@%+".indexOf(c) >= 0;
    }
}
