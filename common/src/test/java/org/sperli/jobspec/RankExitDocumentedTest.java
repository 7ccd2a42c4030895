package org.sperli.jobspec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.sperli.ErrorCode;

/**
 * Protocol section 11 gives every H code its exit status in a table, in English and in German; the rank exit statuses are
 * that table, read here from the documents of this repository.
 */
class RankExitDocumentedTest {
    private static final Pattern CELL = Pattern.compile("\\| (H16\\d\\d) \\| (\\d+) ");

    @Test
    void everyCodesStatusIsTheOneBothProtocolDocumentsGive() throws IOException {
        for (String doc : new String[] {"sperli-protocol.md", "sperli-protokoll.md"}) {
            Map<ErrorCode, Integer> documented = table(Path.of("..", "docs", doc));
            assertEquals(ErrorCode.values().length, documented.size(), doc + ": a code without its status");
            for (ErrorCode code : ErrorCode.values()) {
                assertEquals(documented.get(code), RankExit.forCode(code), doc + ": " + code.name());
            }
        }
    }

    private static Map<ErrorCode, Integer> table(Path doc) throws IOException {
        String text = Files.readString(doc, StandardCharsets.UTF_8);
        int start = text.indexOf("\n## 11.");
        String section = text.substring(start, text.indexOf("\n## 12.", start));
        Map<ErrorCode, Integer> statuses = new EnumMap<>(ErrorCode.class);
        Matcher m = CELL.matcher(section);
        while (m.find()) {
            statuses.put(ErrorCode.valueOf(m.group(1)), Integer.parseInt(m.group(2)));
        }
        return statuses;
    }
}
