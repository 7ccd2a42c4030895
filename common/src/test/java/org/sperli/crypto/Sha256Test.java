package org.sperli.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** SHA-256 helpers: FIPS 180-2 vector "abc", and buffers hashed in place. */
class Sha256Test {
    private static final byte[] ABC = "abc".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] ABC_HASH =
            HexFormat.of().parseHex("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");

    @Test
    void hashesTheFipsVector() {
        assertArrayEquals(ABC_HASH, Sha256.of(ABC));
        assertEquals(Sha256.LENGTH, Sha256.of(new byte[0]).length);
    }

    @Test
    void hashesARangeOfAnArray() {
        byte[] padded = "xxabcyy".getBytes(StandardCharsets.US_ASCII);
        assertArrayEquals(ABC_HASH, Sha256.of(padded, 2, 3));
    }

    @Test
    void hashesPositionToLimitWithoutMovingTheBuffer() {
        ByteBuffer heap = ByteBuffer.wrap("xxabcyy".getBytes(StandardCharsets.US_ASCII)).position(2).limit(5);
        assertArrayEquals(ABC_HASH, Sha256.of(heap));
        assertEquals(2, heap.position());
        assertEquals(5, heap.limit());
        ByteBuffer direct = ByteBuffer.allocateDirect(3).put(ABC).flip();
        assertArrayEquals(ABC_HASH, Sha256.of(direct));
        assertEquals(0, direct.position());
    }

    @Test
    void aReadOnlyHeapBufferLargerThanTheScratchHashesAsItsBytesAndIsNotMoved() {
        byte[] bytes = new byte[Sha256.SCRATCH_BYTES * 2 + 5];
        new SplittableRandom(7).nextBytes(bytes);
        ByteBuffer readOnly = ByteBuffer.wrap(bytes).position(3).asReadOnlyBuffer();
        assertArrayEquals(Sha256.of(bytes, 3, bytes.length - 3), Sha256.of(readOnly));
        assertEquals(3, readOnly.position());
        assertEquals(bytes.length, readOnly.limit());
    }

    @Test
    void comparesHashes() {
        assertTrue(Sha256.equal(Sha256.of(ABC), ABC_HASH));
        assertFalse(Sha256.equal(Sha256.of(new byte[0]), ABC_HASH));
    }
}
