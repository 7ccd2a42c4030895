package org.sperli.checkpoint;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.crypto.Sha256;
import org.sperli.jobspec.JobSpecSamples;
import org.sperli.protocol.CommitLayout;
import org.sperli.protocol.JobId;

class EpochStoreTest {
    private static final JobId JOB = JobSpecSamples.JOB;

    @TempDir
    Path dir;

    private static byte[] state(int length) {
        byte[] bytes = new byte[length];
        new SplittableRandom(length).nextBytes(bytes);
        return bytes;
    }

    private static void refused(ErrorCode code, Executable e) {
        SperliException ex = assertThrows(SperliException.class, e);
        assertEquals(code, ex.code(), ex.getMessage());
    }

    private EpochStore.Written written(EpochStore store, long epoch, byte[] state) {
        store.prepareEpoch(epoch);
        return store.writeRankFile(epoch, out -> out.write(state)).sync();
    }

    @Test
    void aRankFileIsTheHeaderThenTheStateAndItsHashIsTheWholeFiles() throws IOException {
        EpochStore store = EpochStore.of(dir, JOB, 1, 3);
        byte[] state = state(3 * 1024 * 1024 + 5);

        EpochStore.Written w = written(store, 2, state);

        byte[] file = Files.readAllBytes(store.layout().rankFile(2, 1));
        assertEquals(80 + state.length, file.length);
        assertArrayEquals(state, Arrays.copyOfRange(file, 80, file.length));
        assertEquals(RankFileHeader.forState(JOB, 2, 1, 3, ByteBuffer.wrap(state)),
                RankFileHeader.read(ByteBuffer.wrap(file, 0, 80)));
        assertArrayEquals(Sha256.of(ByteBuffer.wrap(file)), w.fileSha256());
        assertArrayEquals(state, store.checkOwnFile(2, null, true).stateOrNull());
        assertFalse(Files.exists(store.layout().rankFileTmp(2, 1)));
    }

    @Test
    void anUnsyncedRankFileIsCompleteUnderItsTemporaryNameAndCountsOnlyOnceSynced() throws IOException {
        EpochStore store = EpochStore.of(dir, JOB, 1, 3);
        store.prepareEpoch(2);
        byte[] state = state(70_000);

        UnsyncedRankFile unsynced = store.writeRankFile(2, out -> out.write(state));

        byte[] early = Files.readAllBytes(unsynced.temporaryPath());
        assertEquals(store.layout().rankFileTmp(2, 1), unsynced.temporaryPath());
        assertFalse(Files.exists(store.layout().rankFile(2, 1)), "no final name before the sync");
        EpochStore.Written w = unsynced.sync();
        assertArrayEquals(early, Files.readAllBytes(w.path()));
        assertArrayEquals(Sha256.of(ByteBuffer.wrap(early)), w.fileSha256());
        assertFalse(Files.exists(store.layout().rankFileTmp(2, 1)));
    }

    @Test
    void aDiscardedUnsyncedRankFileLeavesNeitherFileNorTemporaryName() {
        EpochStore store = EpochStore.of(dir, JOB, 0, 1);
        store.prepareEpoch(1);

        store.writeRankFile(1, out -> out.write(state(1000))).discard();

        assertFalse(Files.exists(store.layout().rankFile(1, 0)));
        assertFalse(Files.exists(store.layout().rankFileTmp(1, 0)));
    }

    @Test
    void anUnsyncedRankFileWhoseTemporaryNameVanishedIsH1619OnSync() throws IOException {
        EpochStore store = EpochStore.of(dir, JOB, 0, 1);
        store.prepareEpoch(1);
        UnsyncedRankFile unsynced = store.writeRankFile(1, out -> out.write(state(1000)));
        Files.delete(unsynced.temporaryPath());

        refused(ErrorCode.H1619, unsynced::sync);

        assertFalse(Files.exists(store.layout().rankFile(1, 0)));
    }

    @Test
    void anEmptyStateMakesAnEightyByteFile() throws IOException {
        EpochStore store = EpochStore.of(dir, JOB, 0, 1);

        written(store, 1, new byte[0]);

        assertEquals(80, Files.size(store.layout().rankFile(1, 0)));
        assertArrayEquals(new byte[0], store.checkOwnFile(1, null, true).stateOrNull());
    }

    @Test
    void aStateWriterThatThrowsIsH1619AndLeavesNeitherFileNorTemporaryName() {
        EpochStore store = EpochStore.of(dir, JOB, 0, 1);
        store.prepareEpoch(1);

        refused(ErrorCode.H1619, () -> store.writeRankFile(1, out -> {
            out.write(1);
            throw new IllegalStateException("test");
        }));

        assertFalse(Files.exists(store.layout().rankFile(1, 0)));
        assertFalse(Files.exists(store.layout().rankFileTmp(1, 0)));
    }

    @Test
    void aFileArrivingInChunksIsStoredUnderItsFinalNameOnlyWhenItChecksOut() throws IOException {
        EpochStore sender = EpochStore.of(dir.resolve("a"), JOB, 1, 2);
        byte[] whole = Files.readAllBytes(written(sender, 1, state(2500)).path());
        EpochStore receiver = EpochStore.of(dir.resolve("b"), JOB, 0, 2);

        byte[] sha;
        try (IncomingRankFile in = receiver.receiveBuddyCopy(1, 1)) {
            // chunks that split the header, as a sender may
            for (int at = 0; at < whole.length; at += 33) {
                in.accept(ByteBuffer.wrap(whole, at, Math.min(33, whole.length - at)), whole.length);
            }
            sha = in.finish(null);
        }

        assertArrayEquals(Sha256.of(ByteBuffer.wrap(whole)), sha);
        assertArrayEquals(whole, Files.readAllBytes(receiver.layout().buddyFile(1, 1)));
        assertFalse(Files.exists(receiver.layout().buddyFileTmp(1, 1)));
    }

    @Test
    void chunksLargerThanTheStagingBufferAndReadOnlyAsDecodedAreStoredAndHashedWhole() throws IOException {
        EpochStore sender = EpochStore.of(dir.resolve("a"), JOB, 1, 2);
        int stateLength = 2 * IncomingRankFile.STAGING_BYTES + 12345;
        byte[] whole = Files.readAllBytes(written(sender, 1, state(stateLength)).path());
        EpochStore receiver = EpochStore.of(dir.resolve("b"), JOB, 0, 2);
        // a chunk that ends inside the header, then one that spans several stagings, then the rest
        int[] cuts = {50, IncomingRankFile.STAGING_BYTES * 2 + 7, whole.length};

        byte[] sha;
        try (IncomingRankFile in = receiver.receiveBuddyCopy(1, 1)) {
            int at = 0;
            for (int cut : cuts) {
                ByteBuffer chunk = ByteBuffer.wrap(whole, at, cut - at).slice().asReadOnlyBuffer();
                in.accept(chunk, whole.length);
                assertFalse(chunk.hasRemaining(), "the chunk is consumed");
                at = cut;
            }
            sha = in.finish(null);
        }

        assertArrayEquals(Sha256.of(ByteBuffer.wrap(whole)), sha);
        assertArrayEquals(whole, Files.readAllBytes(receiver.layout().buddyFile(1, 1)));
    }

    @Test
    void anArrivingFileNamingAnotherRankIsH1619AsSoonAsItsHeaderIsIn() throws IOException {
        byte[] whole = Files.readAllBytes(written(EpochStore.of(dir.resolve("a"), JOB, 0, 2), 1, state(10)).path());
        EpochStore receiver = EpochStore.of(dir.resolve("b"), JOB, 0, 2);

        try (IncomingRankFile in = receiver.receiveBuddyCopy(1, 1)) {
            refused(ErrorCode.H1619, () -> in.accept(ByteBuffer.wrap(whole), whole.length));
        }

        assertFalse(Files.exists(receiver.layout().buddyFileTmp(1, 1)), "the temporary file is removed");
        assertFalse(Files.exists(receiver.layout().buddyFile(1, 1)));
    }

    @Test
    void anArrivingFileOfAnotherSizeIsH1623() throws IOException {
        byte[] whole = Files.readAllBytes(written(EpochStore.of(dir.resolve("a"), JOB, 1, 3), 1, state(10)).path());

        try (IncomingRankFile in = EpochStore.of(dir.resolve("b"), JOB, 0, 2).receiveBuddyCopy(1, 1)) {
            refused(ErrorCode.H1623, () -> in.accept(ByteBuffer.wrap(whole), whole.length));
        }
    }

    @Test
    void anArrivingFileWhoseStateDoesNotMatchItsHeaderIsH1620AndIsNotStored() throws IOException {
        byte[] whole = Files.readAllBytes(written(EpochStore.of(dir.resolve("a"), JOB, 1, 2), 1, state(10)).path());
        whole[whole.length - 1] ^= 1;
        EpochStore receiver = EpochStore.of(dir.resolve("b"), JOB, 0, 2);

        try (IncomingRankFile in = receiver.receiveBuddyCopy(1, 1)) {
            in.accept(ByteBuffer.wrap(whole), whole.length);
            refused(ErrorCode.H1620, () -> in.finish(null));
        }

        assertFalse(Files.exists(receiver.layout().buddyFile(1, 1)));
        assertFalse(Files.exists(receiver.layout().buddyFileTmp(1, 1)));
    }

    @Test
    void anArrivingFileCutInsideItsHeaderIsH1619() {
        try (IncomingRankFile in = EpochStore.of(dir, JOB, 0, 2).receiveBuddyCopy(1, 1)) {
            in.accept(ByteBuffer.wrap(new byte[40]), 40);
            refused(ErrorCode.H1619, () -> in.finish(null));
        }
    }

    @Test
    void aMissingOrCutRankFileIsH1619() throws IOException {
        EpochStore store = EpochStore.of(dir, JOB, 0, 1);
        store.prepareEpoch(1);
        refused(ErrorCode.H1619, () -> store.checkOwnFile(1, null, false));

        Files.write(store.layout().rankFile(1, 0), new byte[79]);
        refused(ErrorCode.H1619, () -> store.checkOwnFile(1, null, false));
    }

    @Test
    void aRankFileLongerThanItsHeaderSaysIsH1619() throws IOException {
        EpochStore store = EpochStore.of(dir, JOB, 0, 1);
        Path file = written(store, 1, state(10)).path();
        Files.write(file, new byte[] {0}, java.nio.file.StandardOpenOption.APPEND);

        refused(ErrorCode.H1619, () -> store.checkOwnFile(1, null, true));
    }

    @Test
    void retentionKeepsTheEpochAndTheOneBeforeAndLeavesLaterEpochsAndOtherNames() throws IOException {
        EpochStore store = EpochStore.of(dir, JOB, 0, 1);
        for (long e : List.of(1L, 2L, 3L, 4L, 6L)) {
            written(store, e, state(5));
        }
        Files.createDirectories(store.layout().jobDir().resolve("01"));

        store.retain(4);

        assertEquals(List.of(6L, 4L, 3L), store.epochsNewestFirst());
        assertTrue(Files.isDirectory(store.layout().jobDir().resolve("01")), "not an epoch name: left alone");
    }

    @Test
    void aCommitIsReadBackAsWrittenAndAMissingOneIsNull() {
        EpochStore store = EpochStore.of(dir, JOB, 0, 1);
        assertNull(store.readCommit(5));

        store.writeCommit(5, new byte[] {1, 2, 3});

        assertArrayEquals(new byte[] {1, 2, 3}, store.readCommit(5));
        assertTrue(store.holdsCommit(5, new byte[] {1, 2, 3}));
        store.removeCommit(5);
        assertNull(store.readCommit(5));
    }

    @Test
    void aCommitFileLongerThanAnyCommitIsRefusedWithH1621BeforeItIsRead() throws IOException {
        EpochStore store = EpochStore.of(dir, JOB, 0, 1);
        store.prepareEpoch(1);
        Files.write(store.layout().commit(1), new byte[CommitLayout.MAX_LENGTH + 1]);

        refused(ErrorCode.H1621, () -> store.readCommit(1));
    }

    @Test
    void theJobPublicKeyIsKeptBesideTheEpochs() throws IOException {
        EpochStore store = EpochStore.of(dir, JOB, 0, 1);
        byte[] key = state(1344);

        store.writeJobPublicKey(key);
        store.writeJobPublicKey(key);

        assertArrayEquals(key, Files.readAllBytes(store.layout().jobDir().resolve(EpochStore.JOB_PUBLIC_KEY)));
    }
}
