package org.sperli.checkpoint;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Supplier;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.jobspec.JobSpecArbitraries;
import org.sperli.jobspec.JoinToken;
import org.sperli.jobspec.Mutations;
import org.sperli.protocol.CommitLayout;
import org.sperli.protocol.JobId;

/**
 * Random and corrupted join tokens, rank file headers and COMMIT files: each decoder gives a value or its own H code,
 * nothing else (an OutOfMemoryError from a length field would fail the property), and a decoded value writes back
 * to exactly the bytes it came from.
 */
class FilesAndTokenProperties {
    private static final long MAX_U32 = 0xffff_ffffL;

    @Provide
    Arbitrary<JoinToken> tokens() {
        return JobSpecArbitraries.tokens();
    }

    @Provide
    Arbitrary<RankFileHeader> headers() {
        Arbitrary<Long> u32 = Arbitraries.longs().between(0, MAX_U32);
        return Combinators.combine(u32, u32, u32, Arbitraries.longs().between(0, RankFileHeader.MAX_STATE_LENGTH),
                Arbitraries.longs())
                .as((epoch, rank, size, stateLength, seed) -> {
                    Random random = new Random(seed);
                    return new RankFileHeader(1, epoch, JobSpecArbitraries.jobId(random), rank, size, stateLength,
                            JobSpecArbitraries.bytes(random, 32));
                });
    }

    @Provide
    Arbitrary<CommitFile> commits() {
        return Combinators.combine(Arbitraries.integers().between(1, 40), Arbitraries.longs().between(0, MAX_U32),
                Arbitraries.longs())
                .as((size, epoch, seed) -> {
                    Random random = new Random(seed);
                    List<byte[]> hashes = new ArrayList<>();
                    for (int r = 0; r < size; r++) {
                        hashes.add(JobSpecArbitraries.bytes(random, 32));
                    }
                    return CommitFile.unsigned(epoch, JobSpecArbitraries.jobId(random), hashes)
                            .withSignature(JobSpecArbitraries.bytes(random, CommitLayout.SIGNATURE_LENGTH));
                });
    }

    /** The decoded value, or null after asserting that the refusal carries one of {@code codes}. */
    private static <T> T decodeOr(Supplier<T> decode, ErrorCode... codes) {
        try {
            return decode.get();
        } catch (SperliException e) {
            assertTrue(Set.of(codes).contains(e.code()), e.getMessage());
            return null;
        }
    }

    @Property(tries = 300)
    void tokensRoundTrip(@ForAll("tokens") JoinToken t) {
        assertEquals(t, JoinToken.read(ByteBuffer.wrap(t.toBytes())));
    }

    @Property(tries = 1000)
    void randomBytesGiveTokenOrH1614(@ForAll @Size(max = 3000) byte[] bytes) {
        JoinToken t = decodeOr(() -> JoinToken.read(ByteBuffer.wrap(bytes)), ErrorCode.H1614);
        if (t != null) {
            assertArrayEquals(bytes, t.toBytes());
        }
    }

    @Property(tries = 1000)
    void mutatedTokensGiveTokenOrH1614(@ForAll("tokens") JoinToken valid, @ForAll long seed) {
        byte[] bytes = Mutations.mutate(valid.toBytes(), new Random(seed));
        JoinToken t = decodeOr(() -> JoinToken.read(ByteBuffer.wrap(bytes)), ErrorCode.H1614);
        if (t != null) {
            assertArrayEquals(bytes, t.toBytes());
        }
    }

    @Property(tries = 300)
    void rankFileHeadersRoundTrip(@ForAll("headers") RankFileHeader h) {
        byte[] bytes = h.toBytes();
        assertEquals(RankFileHeader.LENGTH, bytes.length);
        assertEquals(h, RankFileHeader.read(ByteBuffer.wrap(bytes)));
    }

    @Property(tries = 1000)
    void randomBytesGiveRankFileHeaderOrH1619(@ForAll @Size(max = 120) byte[] bytes) {
        decodeOr(() -> RankFileHeader.read(ByteBuffer.wrap(bytes)), ErrorCode.H1619);
    }

    @Property(tries = 1000)
    void mutatedRankFileHeadersGiveHeaderOrH1619(@ForAll("headers") RankFileHeader valid, @ForAll long seed) {
        byte[] bytes = Mutations.mutate(valid.toBytes(), new Random(seed));
        RankFileHeader h = decodeOr(() -> RankFileHeader.read(ByteBuffer.wrap(bytes)), ErrorCode.H1619);
        if (h != null) {
            assertArrayEquals(bytes, h.toBytes());
        }
    }

    @Property(tries = 500)
    void mutatedRankFilesGiveHeaderOrTheirCodes(@ForAll @Size(max = 200) byte[] state, @ForAll long seed) {
        JobId job = JobId.of(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16});
        RankFileHeader header = RankFileHeader.forState(job, 4, 1, 3, ByteBuffer.wrap(state));
        ByteBuffer file = ByteBuffer.allocate(RankFileHeader.LENGTH + state.length);
        header.write(file);
        file.put(state);
        byte[] bytes = Mutations.mutate(file.array(), new Random(seed));
        decodeOr(() -> RankFiles.verifyFile(ByteBuffer.wrap(bytes), job, 4, 1, 3),
                ErrorCode.H1619, ErrorCode.H1620, ErrorCode.H1623);
    }

    @Property(tries = 200)
    void commitsRoundTrip(@ForAll("commits") CommitFile c) {
        byte[] bytes = c.toBytes();
        assertEquals(CommitLayout.lengthFor((int) c.size()), bytes.length);
        assertEquals(c, CommitFile.read(ByteBuffer.wrap(bytes)));
    }

    @Property(tries = 1000)
    void randomBytesGiveCommitOrH1621(@ForAll @Size(max = 3000) byte[] bytes) {
        decodeOr(() -> CommitFile.read(ByteBuffer.wrap(bytes)), ErrorCode.H1621);
    }

    @Property(tries = 1000)
    void mutatedCommitsGiveCommitOrH1621(@ForAll("commits") CommitFile valid, @ForAll long seed) {
        byte[] bytes = Mutations.mutate(valid.toBytes(), new Random(seed));
        CommitFile c = decodeOr(() -> CommitFile.read(ByteBuffer.wrap(bytes)), ErrorCode.H1621);
        if (c != null) {
            assertArrayEquals(bytes, c.toBytes());
        }
    }

    @Property(tries = 200)
    void commitWithAnySizeFieldGivesCommitOrH1621(@ForAll("commits") CommitFile valid,
                                                   @ForAll @IntRange(min = 0, max = 7) int which) {
        long[] sizes = {0, 1, 4096, 4097, 0x7fff_ffffL, 0x8000_0000L, 0xffff_fffeL, MAX_U32};
        byte[] bytes = valid.toBytes();
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(CommitLayout.SIZE_OFFSET, (int) sizes[which]);
        decodeOr(() -> CommitFile.read(ByteBuffer.wrap(bytes)), ErrorCode.H1621);
    }
}
