package org.sperli.protocol.payload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sperli.protocol.payload.Refusals.assertRefused;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.sperli.ErrorCode;

class ChunkSequenceTest {
    static CkptData chunk(int kind, long fileRank, long offset, long total, int n) {
        return new CkptData(kind, fileRank, offset, total, ByteBuffer.allocate(n));
    }

    @Test
    void acceptsChunksInOrderUntilComplete() {
        ChunkSequence s = new ChunkSequence();
        assertFalse(s.started());
        assertFalse(s.complete());
        s.accept(chunk(0, 2, 0, 25, 10));
        s.accept(chunk(0, 2, 10, 25, 10));
        assertFalse(s.complete());
        assertEquals(20, s.received());
        s.accept(chunk(0, 2, 20, 25, 5));
        assertTrue(s.complete());
        assertEquals(25, s.total());
    }

    @Test
    void emptyFileIsCompleteAfterItsOnlyChunk() {
        ChunkSequence s = new ChunkSequence();
        s.accept(chunk(2, 0, 0, 0, 0));
        assertTrue(s.complete());
    }

    @Test
    void refusesFirstChunkThatDoesNotStartAt0() {
        assertRefused(ErrorCode.H1610, "offset", () -> new ChunkSequence().accept(chunk(0, 2, 10, 25, 5)));
    }

    @Test
    void refusesOffsetOtherThanBytesReceivedSoFar() {
        ChunkSequence s = new ChunkSequence();
        s.accept(chunk(0, 2, 0, 25, 10));
        assertRefused(ErrorCode.H1610, "offset", () -> s.accept(chunk(0, 2, 11, 25, 5)));
        assertRefused(ErrorCode.H1610, "offset", () -> s.accept(chunk(0, 2, 0, 25, 5)));
    }

    @Test
    void refusesChangedTotal() {
        ChunkSequence s = new ChunkSequence();
        s.accept(chunk(0, 2, 0, 25, 10));
        assertRefused(ErrorCode.H1610, "total", () -> s.accept(chunk(0, 2, 10, 30, 10)));
    }

    @Test
    void refusesChunkOfAnotherKindOrFileMidTransfer() {
        ChunkSequence s = new ChunkSequence();
        s.accept(chunk(0, 2, 0, 25, 10));
        assertRefused(ErrorCode.H1610, "kind", () -> s.accept(chunk(2, 2, 10, 25, 10)));
        assertRefused(ErrorCode.H1610, "file rank", () -> s.accept(chunk(0, 3, 10, 25, 10)));
        assertEquals(10, s.received());
    }

    @Test
    void refusesKindsWithoutChunk() {
        assertRefused(ErrorCode.H1610, "kind", () -> new ChunkSequence().accept(CkptData.request(1)));
        assertRefused(ErrorCode.H1610, "kind", () -> new ChunkSequence().accept(CkptData.noCopy(1)));
    }
}
