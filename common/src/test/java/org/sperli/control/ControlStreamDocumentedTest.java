package org.sperli.control;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.sperli.control.ControlFrame.RankRef;
import org.sperli.jobspec.JobDescription;

/**
 * The worked example of the control stream documents (section 8, English and German): each row's bytes are what the
 * encoder writes and read back as the frame the row names; and the limits of section 4 are the encoder's.
 */
class ControlStreamDocumentedTest {
    private static final String[] DOCUMENTS = {"sperli-agent.md", "sperli-agent-de.md"};
    private static final Pattern ROW = Pattern.compile(
            "^\\| (SIGNAL|READY|EXITED) [^|]*\\| `([0-9a-f]{2}(?: [0-9a-f]{2})*)` \\|$", Pattern.MULTILINE);

    private static String document(String name) throws IOException {
        return Files.readString(Path.of("..", "docs", name), StandardCharsets.UTF_8);
    }

    /** The rows of section 8: frame name to bytes. */
    private static Map<String, byte[]> example(String text) {
        int start = text.indexOf("\n## 8.");
        assertTrue(start >= 0, "no section 8");
        Map<String, byte[]> rows = new LinkedHashMap<>();
        Matcher m = ROW.matcher(text.substring(start));
        while (m.find()) {
            rows.put(m.group(1), HexFormat.ofDelimiter(" ").parseHex(m.group(2)));
        }
        return rows;
    }

    @Test
    void theWorkedExampleIsWhatTheEncoderWritesAndTheReaderReads() throws IOException {
        ByteArrayOutputStream signal = new ByteArrayOutputStream();
        ControlFrames.writeSignal(signal, 3, 2, ControlFrames.SIGTERM);
        ByteArrayOutputStream ready = new ByteArrayOutputStream();
        ControlFrames.writeReady(ready, 4711);
        ByteArrayOutputStream exited = new ByteArrayOutputStream();
        ControlFrames.writeExited(exited, 0, 1, 5);
        for (String doc : DOCUMENTS) {
            Map<String, byte[]> rows = example(document(doc));
            assertEquals(3, rows.size(), doc + ": the rows of section 8");
            assertArrayEquals(signal.toByteArray(), rows.get("SIGNAL"), doc + ": SIGNAL");
            assertArrayEquals(ready.toByteArray(), rows.get("READY"), doc + ": READY");
            assertArrayEquals(exited.toByteArray(), rows.get("EXITED"), doc + ": EXITED");

            ControlFrameReader agentSide = ControlStreams.launcherFrames(rows.get("SIGNAL"));
            assertEquals(new ControlFrame.Signal(new RankRef(3, 2), 15), agentSide.next());
            assertNull(agentSide.next());
            assertEquals(new ControlFrame.Ready(1, 4711), ControlStreams.agentFrames(rows.get("READY")).next());
            assertEquals(new ControlFrame.Exited(new RankRef(0, 1), 5),
                    ControlStreams.agentFrames(rows.get("EXITED")).next());
        }
    }

    @Test
    void bothDocumentsGiveTheLimitsOfTheEncoder() throws IOException {
        for (String doc : DOCUMENTS) {
            String text = document(doc);
            String section = text.substring(text.indexOf("\n## 4."), text.indexOf("\n## 5."));
            assertTrue(section.contains("| " + ControlFrames.MAX_LAUNCHER_FRAME + " |"), doc + ": launcher limit");
            assertTrue(section.contains("| " + ControlFrames.MAX_AGENT_FRAME + " |"), doc + ": agent limit");
            assertTrue(section.contains(String.valueOf(JobDescription.MAX_LINE_HEX_DIGITS)),
                    doc + ": longest description line");
        }
    }

    /** Section 9's worked example: the credential frame is what {@link CallHome} writes and reads back. */
    @Test
    void theCallHomeExampleIsWhatCallHomeWritesAndReads() throws IOException {
        ByteArrayOutputStream frame = new ByteArrayOutputStream();
        CallHome.writeCredential(frame, "MUNGE:AbC:");
        String payload = new CallHome.Payload("17", "0", "n2", "0f".repeat(32), "a5".repeat(32)).text();
        Pattern row = Pattern.compile("^\\| [^|]*`MUNGE:AbC:` \\| `([0-9a-f]{2}(?: [0-9a-f]{2})*)` \\|$",
                Pattern.MULTILINE);
        for (String doc : DOCUMENTS) {
            String text = document(doc);
            String section = text.substring(text.indexOf("\n## 9."));
            Matcher m = row.matcher(section);
            assertTrue(m.find(), doc + ": no credential row in section 9");
            byte[] bytes = HexFormat.ofDelimiter(" ").parseHex(m.group(1));
            assertArrayEquals(frame.toByteArray(), bytes, doc + ": credential frame");
            assertEquals("MUNGE:AbC:", CallHome.readCredential(new java.io.ByteArrayInputStream(bytes)));
            assertTrue(section.contains("\n" + payload + "\n"), doc + ": the payload of the example");
        }
    }
}
