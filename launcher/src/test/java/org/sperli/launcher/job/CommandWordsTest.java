package org.sperli.launcher.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.sperli.launcher.exit.LauncherException;

class CommandWordsTest {
    @Test
    void splitsLikeAShell() {
        assertEquals(List.of("java", "-Dx=a b", "it's", "c\"d", "e f"),
                CommandWords.split("  java '-Dx=a b' \"it's\" c\\\"d  e\\ f "));
    }

    @Test
    void refusesOpenQuotesAndEmptyCommands() {
        assertThrows(LauncherException.class, () -> CommandWords.split("java 'x"));
        assertThrows(LauncherException.class, () -> CommandWords.split("   "));
    }

    @Test
    void quotesOnlyWhatNeedsIt() {
        assertEquals("plain-word_1.jar", CommandWords.quote("plain-word_1.jar"));
        assertEquals("'a b'", CommandWords.quote("a b"));
        assertEquals("'it'\\''s'", CommandWords.quote("it's"));
        assertEquals("''", CommandWords.quote(""));
        assertEquals("'$HOME'", CommandWords.quote("$HOME"));
    }

    @Test
    void remoteLineQuotesJobArguments() {
        RankCommand command = RankCommand.of("sperli-rankd", java.util.Map.of());
        assertEquals("sperli-rankd --jar-sha256 ab .cache/sperli/jars/ab.jar 'x y' '$z'",
                command.remoteLine("ab", ".cache/sperli/jars/ab.jar", List.of("x y", "$z")));
    }
}
