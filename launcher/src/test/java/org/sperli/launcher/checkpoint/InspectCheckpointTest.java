package org.sperli.launcher.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sperli.checkpoint.RankFileHeader;
import org.sperli.checkpoint.inspect.Inspector;
import org.sperli.crypto.CompositeSig;
import org.sperli.launcher.LauncherHarness;
import org.sperli.launcher.command.SperliCommand;
import picocli.CommandLine;

/**
 * {@code sperli inspect-checkpoint} on directories built with the common codecs: which epoch a resume picks, and the
 * exact code for each thing that keeps an epoch from counting.
 */
class InspectCheckpointTest {
    /** An epoch's verdict line of the table: marker, epoch, verdict, optional code. */
    private static final Pattern VERDICT_LINE =
            Pattern.compile("^([* ]) (\\d+)\\s+=> ([A-Z_]+)(?: (H\\d{4}))?  (.*)$", Pattern.MULTILINE);

    @TempDir
    Path dir;

    record Result(int exit, String out, String err) {
        /** Epoch number to "VERDICT[ CODE]" as the table shows it. */
        Map<Long, String> verdicts() {
            Map<Long, String> v = new java.util.TreeMap<>();
            Matcher m = VERDICT_LINE.matcher(out);
            while (m.find()) {
                v.put(Long.parseLong(m.group(2)), m.group(3) + (m.group(4) == null ? "" : " " + m.group(4)));
            }
            return v;
        }

        String line(String containing) {
            return out.lines().filter(l -> l.contains(containing)).findFirst().orElse("(no line with " + containing
                    + " in:\n" + out + ")");
        }
    }

    private static Result inspect(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = SperliCommand.commandLine(new PrintWriter(out, true), new PrintWriter(err, true),
                LauncherHarness.environment(Map.of()));
        List<String> line = new ArrayList<>(List.of("inspect-checkpoint"));
        line.addAll(List.of(args));
        int exit = cl.execute(line.toArray(String[]::new));
        return new Result(exit, out.toString(), err.toString());
    }

    @Test
    void newestCompleteEpochIsPickedAndTheOlderOneIsOnlyOlder() throws IOException {
        CheckpointDirs d = CheckpointDirs.create(dir);
        d.writeEpoch(1, 2);
        d.writeEpoch(2, 2);

        Result r = inspect(dir.toString());

        assertEquals(0, r.exit(), r.out() + r.err());
        assertEquals(Map.of(1L, "OLDER", 2L, "RESUME"), r.verdicts(), r.out());
        assertTrue(r.out().contains("* 2      => RESUME"), r.out());
        assertTrue(r.out().contains("verdict: RESUMABLE, epoch 2: a resume picks epoch 2 and loads every rank"),
                r.out());
        assertTrue(r.out().contains("size 2 (from the COMMIT of epoch 2)  public key: job.pub"), r.out());
        assertTrue(r.line("2      rank-1.ckpt.buddy").contains("ok: matches the COMMIT"), r.out());
    }

    @Test
    void newestEpochWithoutCommitFallsBackToTheOlderOneWithTheReason() throws IOException {
        CheckpointDirs d = CheckpointDirs.create(dir);
        d.writeEpoch(1, 2);
        d.writeFiles(2, 2);
        Files.write(d.layout.commitTmp(2), new byte[100]);

        Result r = inspect(dir.toString());

        assertEquals(0, r.exit(), r.out() + r.err());
        assertEquals(Map.of(1L, "RESUME", 2L, "NO_COMMIT"), r.verdicts(), r.out());
        assertTrue(r.line("2      => NO_COMMIT").contains("no COMMIT: the checkpoint did not finish"), r.out());
        assertTrue(r.line("COMMIT.tmp").contains("ignored: temporary name"), r.out());
        assertTrue(r.out().contains("verdict: RESUMABLE, epoch 1"), r.out());
    }

    @Test
    void flippedByteInARankFileIsH1620AndTheBuddyCopyIsLoadedInstead() throws IOException {
        CheckpointDirs d = CheckpointDirs.create(dir);
        d.writeEpoch(1, 2);
        CheckpointDirs.flipByte(d.layout.rankFile(1, 1), RankFileHeader.LENGTH + 5);

        Result r = inspect(dir.toString());

        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(r.line("1      rank-1.ckpt ").contains("H1620 rank-1.ckpt state SHA-256="), r.out());
        assertTrue(r.line("1      rank-1.ckpt ").contains(", header says "), r.out());
        assertTrue(r.line("1      rank-1.ckpt.buddy").contains("ok: matches the COMMIT"), r.out());
        assertTrue(r.line("1      => RESUME").contains("(rank 1 from the buddy copy)"), r.out());
    }

    @Test
    void pickedEpochWhoseRankCannotBeLoadedIsH1622WithoutFallingBack() throws IOException {
        CheckpointDirs d = CheckpointDirs.create(dir);
        d.writeEpoch(1, 2);
        d.writeEpoch(2, 2);
        CheckpointDirs.flipByte(d.layout.rankFile(2, 1), RankFileHeader.LENGTH + 5);
        Files.delete(d.layout.buddyFile(2, 1));

        Result r = inspect(dir.toString());

        assertEquals(1, r.exit(), r.out() + r.err());
        assertEquals(Map.of(1L, "OLDER", 2L, "REFUSED H1622"), r.verdicts(), r.out());
        assertTrue(r.line("2      => REFUSED H1622").contains("rank 1 cannot be loaded: its file is refused (H1620"),
                r.out());
        assertTrue(r.line("2      => REFUSED H1622").contains("its buddy copy is missing"), r.out());
        assertTrue(r.line("1      => OLDER").contains("does not fall back past it"), r.out());
        assertTrue(r.out().contains("verdict: NOT_RESUMABLE H1622, epoch 2"), r.out());
    }

    @Test
    void commitSignedWithAnotherKeyIsH1621AndTheOlderEpochIsPicked() throws IOException {
        CheckpointDirs d = CheckpointDirs.create(dir);
        d.writeEpoch(1, 2);
        d.writeCommit(2, d.writeFiles(2, 2), CheckpointDirs.otherKey());

        Result r = inspect(dir.toString());

        assertEquals(0, r.exit(), r.out() + r.err());
        assertEquals(Map.of(1L, "RESUME", 2L, "REFUSED H1621"), r.verdicts(), r.out());
        assertTrue(r.line("2      COMMIT").contains("H1621 COMMIT of epoch 2: the signature does not verify with"
                + " the job public key"), r.out());
    }

    @Test
    void signedCommitOfAnotherSizeIsH1623() throws IOException {
        CheckpointDirs d = CheckpointDirs.create(dir);
        d.writeEpoch(1, 2);
        d.writeEpoch(2, 3);

        Result r = inspect(dir.toString(), "--size", "2");

        assertEquals(0, r.exit(), r.out() + r.err());
        assertEquals(Map.of(1L, "RESUME", 2L, "REFUSED H1623"), r.verdicts(), r.out());
        assertTrue(r.line("2      COMMIT").contains("H1623 COMMIT size=3, expected 2"), r.out());
        assertTrue(r.line("2      rank-0.ckpt ").contains("H1623 rank file size=3, expected 2"), r.out());
        assertTrue(r.line("2      rank-2.ckpt*").contains("rank 2 is outside size 2"), r.out());
    }

    @Test
    void nothingResumableExitsOneForAFreshStartAndForCommitsThatAllFail() throws IOException {
        CheckpointDirs d = CheckpointDirs.create(dir);
        d.writeFiles(1, 2);

        Result fresh = inspect(dir.toString());
        assertEquals(1, fresh.exit(), fresh.out() + fresh.err());
        assertTrue(fresh.out().contains("verdict: FRESH_START: no COMMIT in any epoch"), fresh.out());

        d.writeCommit(1, d.writeFiles(1, 2), CheckpointDirs.otherKey());
        Result refused = inspect(dir.toString());
        assertEquals(1, refused.exit(), refused.out() + refused.err());
        assertTrue(refused.out().contains("verdict: NOT_RESUMABLE H1621: no COMMIT holds; the newest failure,"
                + " epoch 1: COMMIT of epoch 1: the signature does not verify"), refused.out());
    }

    @Test
    void withoutAPublicKeyTheEpochIsResumableOnlyIfSignedAndExitsThree() throws IOException {
        CheckpointDirs d = CheckpointDirs.create(dir);
        d.writeEpoch(1, 2);
        Path key = Files.move(d.layout.jobDir().resolve(Inspector.PUBLIC_KEY_FILE), dir.resolve("key.pub"));

        Result unverified = inspect(dir.toString());
        assertEquals(3, unverified.exit(), unverified.out() + unverified.err());
        assertEquals(Map.of(1L, "RESUME_UNVERIFIED"), unverified.verdicts(), unverified.out());
        assertTrue(unverified.out().contains("ignored key.pub: not a job directory"), unverified.out());

        Result given = inspect(dir.toString(), "--public-key", key.toString(), "--job", d.job.hex());
        assertEquals(0, given.exit(), given.out() + given.err());
        assertTrue(given.out().contains("public key: --public-key " + key), given.out());
        assertEquals(Map.of(1L, "RESUME"), given.verdicts(), given.out());
    }

    /** A job.pub replaced together with a COMMIT forged over changed state verifies: the report says whose key. */
    @Test
    void aKeyFromTheDirectoryItselfIsFlaggedAndAnIndependentKeyRefusesTheForgery() throws IOException {
        CheckpointDirs d = CheckpointDirs.create(dir);
        d.writeEpoch(1, 2);
        CompositeSig.KeyPair forger = CheckpointDirs.otherKey();
        d.writeCommit(2, d.writeFiles(2, 2), forger);
        Files.write(d.layout.jobDir().resolve(Inspector.PUBLIC_KEY_FILE), forger.publicKey());

        Result trusting = inspect(dir.toString());
        assertEquals(Map.of(1L, "REFUSED H1621", 2L, "RESUME"), trusting.verdicts(), trusting.out());
        assertTrue(trusting.out().contains("public key: job.pub (from this directory itself, not independent of the"
                + " COMMITs)"), trusting.out());
        assertTrue(trusting.line("verdict: RESUMABLE").contains("signatures checked against job.pub from this"
                + " directory itself"), trusting.out());
        JsonNode job = new ObjectMapper().readTree(inspect(dir.toString(), "--json").out()).get("jobs").get(0);
        assertTrue(job.get("keyFromDirectory").asBoolean(), job.toString());

        Path genuine = Files.write(dir.resolve("genuine.pub"), d.key.publicKey());
        Result checked = inspect(dir.toString(), "--public-key", genuine.toString(), "--job", d.job.hex());
        assertEquals(Map.of(1L, "RESUME", 2L, "REFUSED H1621"), checked.verdicts(), checked.out());
        assertFalse(checked.out().contains("from this directory itself"), checked.out());
    }

    @Test
    void symbolicLinkInPlaceOfARankFileIsNotFollowed() throws IOException {
        CheckpointDirs d = CheckpointDirs.create(dir);
        d.writeEpoch(1, 2);
        Path outside = Files.createTempFile("sperli-outside-", ".ckpt");
        try {
            Files.move(d.layout.rankFile(1, 0), outside, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            Files.createSymbolicLink(d.layout.rankFile(1, 0), outside);

            Result r = inspect(dir.toString());

            assertTrue(r.line("1      rank-0.ckpt ").contains("H1619 a symbolic link, not followed"), r.out());
            assertTrue(r.line("1      => RESUME").contains("(rank 0 from the buddy copy)"), r.out());
        } finally {
            Files.deleteIfExists(outside);
        }
    }

    @Test
    void rankFileLongerThanItsHeaderSaysIsH1619() throws IOException {
        CheckpointDirs d = CheckpointDirs.create(dir);
        d.writeEpoch(1, 2);
        Files.write(d.layout.rankFile(1, 1), new byte[1000], java.nio.file.StandardOpenOption.APPEND);

        Result r = inspect(dir.toString());

        assertTrue(r.line("1      rank-1.ckpt ").contains("H1619 rank file file length=1350"), r.out());
        assertTrue(r.line("1      rank-1.ckpt ").contains("expected 80 + state length"), r.out());
    }

    @Test
    void jsonParsesWithJacksonAndHasTheTablesVerdicts() throws IOException {
        CheckpointDirs d = CheckpointDirs.create(dir);
        d.writeEpoch(1, 2);
        d.writeCommit(2, d.writeFiles(2, 2), CheckpointDirs.otherKey());
        d.writeFiles(3, 2);
        CheckpointDirs.flipByte(d.layout.buddyFile(1, 0), RankFileHeader.LENGTH + 1);

        Result table = inspect(dir.toString());
        Result json = inspect(dir.toString(), "--json");

        assertEquals(table.exit(), json.exit());
        JsonNode root = new ObjectMapper().readTree(json.out());
        JsonNode job = root.get("jobs").get(0);
        assertEquals(d.job.hex(), job.get("jobId").asText());
        assertEquals("RESUMABLE", job.get("verdict").asText());
        assertEquals(1, job.get("resumeEpoch").asLong());
        Map<Long, String> fromJson = new java.util.TreeMap<>();
        for (JsonNode epoch : job.get("epochs")) {
            fromJson.put(epoch.get("epoch").asLong(), epoch.get("verdict").asText()
                    + (epoch.get("code").isNull() ? "" : " " + epoch.get("code").asText()));
        }
        assertEquals(Map.of(1L, "RESUME", 2L, "REFUSED H1621", 3L, "NO_COMMIT"), fromJson);
        assertEquals(table.verdicts(), fromJson);
        JsonNode buddy = job.get("epochs").get(2).get("ranks").get(0).get("buddy");
        assertEquals("rank-0.ckpt.buddy", buddy.get("name").asText());
        assertEquals("H1620", buddy.get("code").asText());
        assertTrue(buddy.get("fileSha256").isNull(), "no whole-file hash of a refused file");
        assertEquals(64, buddy.get("headerStateSha256").asText().length());
        assertEquals(64, job.get("epochs").get(2).get("ranks").get(0).get("file").get("fileSha256").asText()
                .length());
        assertFalse(root.has("anyResumable"), "only record components are serialised");
    }

    @Test
    void missingDirectoryIsExitTwoWithOneLine() {
        Result r = inspect(dir.resolve("nope").toString());

        assertEquals(2, r.exit());
        assertEquals("sperli: " + dir.resolve("nope") + " does not exist", r.err().strip());
        assertEquals("", r.out());
    }

    @Test
    void directoryWithoutJobDirectoriesIsExitTwo() throws IOException {
        Files.writeString(dir.resolve("notes.txt"), "hello");

        Result r = inspect(dir.toString());

        assertEquals(2, r.exit());
        assertTrue(r.err().strip().startsWith("sperli: " + dir + " is not a checkpoint directory"), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
    }

    @Test
    void helpListsTheCommandsOwnExitCodes() {
        Result r = inspect("--help");

        assertEquals(0, r.exit());
        assertTrue(r.out().contains("an epoch is resumable only if its COMMIT signature holds"), r.out());
        assertFalse(r.out().contains("job completed"), r.out());
    }
}
