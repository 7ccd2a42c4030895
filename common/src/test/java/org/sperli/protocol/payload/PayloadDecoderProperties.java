package org.sperli.protocol.payload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.protocol.JobId;
import org.sperli.protocol.LeBytes;
import org.sperli.protocol.Limits;
import org.sperli.protocol.frame.FrameType;
import org.sperli.protocol.frame.HeaderCheck;
import org.sperli.protocol.frame.HeaderVerdict;
import org.sperli.protocol.frame.ReceiverContext;

/**
 * Hostile input into every decoder and into the header check: the only outcomes are a value or a SperliException
 * with an H code, the input is never moved or changed, and no decoder allocates much more than its input, whatever a
 * length field claims. On top, encoder and decoder agree: what the encoder writes the decoder takes back unchanged.
 */
class PayloadDecoderProperties {
    static final JobId JOB = JobId.parseHex("00112233445566778899aabbccddeeff");
    /** Slack for the exception, its message and one-time class initialisation; far below any length-field attack. */
    static final long ALLOCATION_SLACK = 256 * 1024;

    record Decoder(String name, Function<ByteBuffer, Object> decode) {
    }

    static List<Decoder> decoders(int jobSize) {
        return List.of(
                new Decoder("Hello", Hello::read),
                new Decoder("Heartbeat", Heartbeat::read),
                new Decoder("Abort", Abort::read),
                new Decoder("CkptBegin", CkptBegin::read),
                new Decoder("CkptData", CkptData::read),
                new Decoder("CkptAck", CkptAck::read),
                new Decoder("Resume", b -> Resume.read(b, jobSize)),
                new Decoder("CollectiveHeader", CollectiveHeader::read),
                new Decoder("CollectiveData", CollectiveHeader::data));
    }

    @BeforeContainer
    static void initialiseDecoderClasses() {
        // Class loading allocates on the calling thread; do it before anything is measured.
        for (Decoder d : decoders(1)) {
            outcome(d, new byte[0]);
        }
    }

    @Property(tries = 500)
    void randomBytesGiveAValueOrAnHCode(@ForAll @Size(max = 3000) byte[] bytes,
                                        @ForAll @IntRange(min = 1, max = 3) int jobSize) {
        for (Decoder d : decoders(jobSize)) {
            outcome(d, bytes);
        }
    }

    @Property(tries = 500)
    void mutatedValidPayloadsGiveAValueOrAnHCode(@ForAll("validPayloads") byte[] valid, @ForAll Random random,
                                                 @ForAll @IntRange(min = 1, max = 2) int jobSize) {
        byte[] mutated = mutate(valid, random);
        for (Decoder d : decoders(jobSize)) {
            Object value = outcome(d, mutated);
            if (value != null) {
                reencodesTheSameBytes(value, mutated);
            }
        }
    }

    @Property(tries = 500)
    void randomHeadersGetAVerdict(@ForAll @Size(value = 52) byte[] header) {
        verdict(header);
    }

    @Property(tries = 500)
    void mutatedValidHeadersGetAVerdict(@ForAll("validHeaders") byte[] valid, @ForAll Random random) {
        byte[] mutated = valid.clone();
        for (int i = random.nextInt(3); i >= 0; i--) {
            mutated[random.nextInt(mutated.length)] = (byte) random.nextInt(256);
        }
        verdict(mutated);
    }

    @Property(tries = 300)
    void helloEncoderAndDecoderAgree(@ForAll @LongRange(min = -1, max = 3) long version, @ForAll long features,
                                     @ForAll @IntRange(max = Limits.MAX_TOKEN + 2) int tokenLength) {
        agree(() -> new Hello(version, features, new byte[tokenLength]), Hello::read, Hello::toBytes);
    }

    @Property(tries = 300)
    void abortEncoderAndDecoderAgree(@ForAll @LongRange(min = -1, max = 1L << 32) long reason,
                                     @ForAll @LongRange(min = -1, max = 1L << 32) long code,
                                     @ForAll @Size(max = 1100) String message) {
        agree(() -> new Abort(reason, code, message), Abort::read, Abort::toBytes);
        Abort made = Abort.of(Math.floorMod(reason, 8) + 1, ErrorCode.ofNumber((int) (code % 1625)), message);
        assertEquals(made, Abort.read(ByteBuffer.wrap(made.toBytes())));
    }

    @Property(tries = 300)
    void ckptBeginEncoderAndDecoderAgree(@ForAll @LongRange(min = -1, max = 3) long version,
                                         @ForAll @LongRange(min = -1, max = 5000) long size) {
        agree(() -> new CkptBegin(version, size), CkptBegin::read, CkptBegin::toBytes);
    }

    @Property(tries = 300)
    void ckptDataEncoderAndDecoderAgree(@ForAll @IntRange(min = -1, max = 6) int kind,
                                        @ForAll @LongRange(min = -1, max = 1L << 32) long fileRank,
                                        @ForAll("offsets") long offset, @ForAll("offsets") long total,
                                        @ForAll @IntRange(max = 300) int chunkLength) {
        agree(() -> new CkptData(kind, fileRank, offset, total, ByteBuffer.allocate(chunkLength)), CkptData::read,
                CkptData::toBytes);
    }

    @Property(tries = 100)
    void ckptAckEncoderAndDecoderAgree(@ForAll @Size(max = 40) byte[] hash) {
        agree(() -> new CkptAck(hash), CkptAck::read, CkptAck::toBytes);
    }

    @Property(tries = 300)
    void resumeEncoderAndDecoderAgree(@ForAll @LongRange(min = -1, max = 5) long status,
                                      @ForAll @IntRange(min = 1, max = 3) int jobSize,
                                      @ForAll @IntRange(min = -2, max = 2) int commitDelta,
                                      @ForAll boolean withCommit) {
        int commitLength = withCommit ? Resume.commitLength(jobSize) + commitDelta : 0;
        agree(() -> new Resume(status, ByteBuffer.allocate(commitLength)), b -> Resume.read(b, jobSize),
                Resume::toBytes);
    }

    @Property(tries = 300)
    void collectiveHeaderEncoderAndDecoderAgree(@ForAll @IntRange(min = -1, max = 8) int operation,
                                                @ForAll @IntRange(min = -1, max = 256) int elementType,
                                                @ForAll @IntRange(min = -1, max = 256) int reduceOp,
                                                @ForAll @IntRange(min = -1, max = 9) int phase,
                                                @ForAll @LongRange(min = -1, max = 1L << 32) long root,
                                                @ForAll long sequence) {
        agree(() -> new CollectiveHeader(operation, elementType, reduceOp, phase, root, sequence),
                CollectiveHeader::read, CollectiveHeader::toBytes);
    }

    // ---- arbitraries -------------------------------------------------------------------------------------------

    @Provide
    Arbitrary<byte[]> validPayloads() {
        Arbitrary<byte[]> hello = Combinators.combine(Arbitraries.longs(), Arbitraries.bytes().array(byte[].class)
                .ofMaxSize(300)).as((f, t) -> new Hello(1, f | 1, t).toBytes());
        Arbitrary<byte[]> heartbeat = Arbitraries.longs().map(c -> new Heartbeat(c).toBytes());
        Arbitrary<byte[]> abort = Combinators.combine(Arbitraries.integers().between(1, 8),
                Arbitraries.of(ErrorCode.values()), Arbitraries.strings().ofMaxLength(1100))
                .as((r, c, m) -> Abort.of(r, c, m).toBytes());
        Arbitrary<byte[]> begin = Arbitraries.integers().between(1, 4096).map(s -> CkptBegin.v1(s).toBytes());
        Arbitrary<byte[]> chunk = Combinators.combine(Arbitraries.of(0, 2), Arbitraries.integers().between(0, 4095),
                Arbitraries.longs().between(0, 1000), Arbitraries.bytes().array(byte[].class).ofMaxSize(200),
                Arbitraries.longs().between(0, 1000))
                .as((k, r, o, c, extra) -> new CkptData(k, r, o, o + c.length + extra, ByteBuffer.wrap(c)).toBytes());
        Arbitrary<byte[]> noChunk = Combinators.combine(Arbitraries.of(1, 3, 4), Arbitraries.integers().between(0, 9))
                .as((k, r) -> new CkptData(k, r, 0, 0, null).toBytes());
        Arbitrary<byte[]> ack = Arbitraries.bytes().array(byte[].class).ofSize(32).map(h -> new CkptAck(h).toBytes());
        Arbitrary<byte[]> resume = Combinators.combine(Arbitraries.of(0, 3), Arbitraries.integers().between(1, 2),
                Arbitraries.bytes()).as((s, n, fill) -> {
                    byte[] commit = new byte[Resume.commitLength(n)];
                    Arrays.fill(commit, fill);
                    return new Resume(s, ByteBuffer.wrap(commit)).toBytes();
                });
        Arbitrary<byte[]> status = Arbitraries.integers().between(0, 3).map(s -> Resume.of(s).toBytes());
        Arbitrary<byte[]> collective = Combinators.combine(Arbitraries.integers().between(1, 6),
                Arbitraries.integers().between(0, 1), Arbitraries.longs(),
                Arbitraries.bytes().array(byte[].class).ofMaxSize(64))
                .as((op, ph, seq, data) -> LeBytes.le().bytes(new CollectiveHeader(op, 0, 0, ph, 0, seq).toBytes())
                        .bytes(data).toBytes());
        return Arbitraries.oneOf(hello, heartbeat, abort, begin, chunk, noChunk, ack, resume, status, collective);
    }

    @Provide
    Arbitrary<byte[]> validHeaders() {
        return Combinators.combine(Arbitraries.of(FrameType.values()), Arbitraries.integers().between(0, 40),
                Arbitraries.longs().between(0, Limits.MAX_USER_TAG))
                .as((type, length, tag) -> LeBytes.le()
                        .u32(length).u8(type.code()).u8(0).u16(0).u64(0).bytes(JOB.toBytes())
                        .u32(1).u32(0).u32(2).u32(type == FrameType.DATA ? tag : 0).u32(type.carriesEpoch() ? 3 : 0)
                        .toBytes());
    }

    @Provide
    Arbitrary<Long> offsets() {
        return Arbitraries.oneOf(Arbitraries.longs().between(0, 2000), Arbitraries.longs())
                .edgeCases(c -> c.add(-1L, Long.MIN_VALUE, Long.MAX_VALUE, 0L));
    }

    // ---- checks ------------------------------------------------------------------------------------------------

    /** Decodes {@code bytes} from the middle of a larger buffer; the value, or {@code null} after an H code. */
    static Object outcome(Decoder d, byte[] bytes) {
        ByteBuffer in = LeBytes.embedded(bytes);
        int position = in.position();
        int limit = in.limit();
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        Object value;
        try {
            value = d.decode().apply(in);
            assertNotNull(value, d.name());
        } catch (SperliException e) {
            assertNotNull(e.code(), d.name());
            assertTrue(e.getMessage().startsWith(e.code().name() + " "), e.getMessage());
            value = null;
        } catch (RuntimeException e) {
            throw new AssertionError(d.name() + " threw " + e + " for " + bytes.length + " bytes", e);
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertTrue(allocated <= 8L * bytes.length + ALLOCATION_SLACK,
                () -> d.name() + " allocated " + allocated + " bytes for " + bytes.length + " input bytes");
        assertEquals(position, in.position(), d.name());
        assertEquals(limit, in.limit(), d.name());
        byte[] after = new byte[bytes.length];
        in.get(position, after);
        assertArrayEquals(bytes, after, d.name());
        return value;
    }

    /**
     * What a decoder accepted, its encoder writes back byte for byte. Two exceptions by design: CKPT_BEGIN's
     * version and size are judged by {@code check}, and a decoded ABORT message with malformed UTF-8 was repaired.
     */
    static void reencodesTheSameBytes(Object value, byte[] input) {
        byte[] out;
        if (value instanceof Hello h) {
            out = h.toBytes();
        } else if (value instanceof Heartbeat h) {
            out = h.toBytes();
        } else if (value instanceof CkptData d) {
            out = d.toBytes();
        } else if (value instanceof CkptAck a) {
            out = a.toBytes();
        } else if (value instanceof Resume r) {
            out = r.toBytes();
        } else if (value instanceof CollectiveHeader c) {
            out = c.toBytes();
            input = Arrays.copyOf(input, CollectiveHeader.LENGTH);
        } else if (value instanceof Abort a) {
            try {
                assertEquals(a, Abort.read(ByteBuffer.wrap(a.toBytes())));
            } catch (IllegalArgumentException e) {
                assertTrue(a.message().indexOf('\uFFFD') >= 0, e.getMessage());
            }
            return;
        } else {
            return;
        }
        assertArrayEquals(input, out, value.toString());
    }

    static void verdict(byte[] header) {
        ReceiverContext ctx = new ReceiverContext(JOB, 3, 0, 1, 2);
        HeaderVerdict v;
        try {
            v = HeaderCheck.check(ByteBuffer.wrap(header).asReadOnlyBuffer(), 0, ctx);
        } catch (RuntimeException e) {
            throw new AssertionError("HeaderCheck threw " + e, e);
        }
        if (v instanceof HeaderVerdict.Refuse r) {
            assertEquals(ErrorCode.H1610, r.code());
        } else if (v instanceof HeaderVerdict.Drop d) {
            assertTrue(d.discardBytes() <= Limits.MAX_PAYLOAD, v.toString());
        } else if (v instanceof HeaderVerdict.Accept a) {
            assertTrue(a.header().length() <= Limits.MAX_PAYLOAD, v.toString());
            assertEquals(2, a.header().incarnation());
        } else {
            fail("no verdict");
        }
    }

    interface Maker<T> {
        T make();
    }

    /** Either the encoder refuses, or the decoder takes its bytes back to an equal value and the same bytes. */
    static <T> void agree(Maker<T> maker, Function<ByteBuffer, T> decode, Function<T, byte[]> encode) {
        T value = maker.make();
        byte[] bytes;
        try {
            bytes = encode.apply(value);
        } catch (IllegalArgumentException refused) {
            return;
        }
        T decoded = decode.apply(ByteBuffer.wrap(bytes));
        assertEquals(value, decoded);
        assertArrayEquals(bytes, encode.apply(decoded));
    }

    static byte[] mutate(byte[] valid, Random random) {
        switch (random.nextInt(5)) {
            case 0 -> {
                byte[] m = valid.clone();
                for (int i = random.nextInt(4); i >= 0 && m.length > 0; i--) {
                    m[random.nextInt(m.length)] ^= (byte) (1 << random.nextInt(8));
                }
                return m;
            }
            case 1 -> {
                return Arrays.copyOf(valid, valid.length == 0 ? 0 : random.nextInt(valid.length));
            }
            case 2 -> {
                byte[] m = Arrays.copyOf(valid, valid.length + 1 + random.nextInt(3));
                for (int i = valid.length; i < m.length; i++) {
                    m[i] = (byte) random.nextInt(256);
                }
                return m;
            }
            case 3 -> {
                // Length-field attack: a 2-, 4- or 8-byte field at an aligned offset becomes all ones or 2^31.
                byte[] m = valid.clone();
                int width = 2 << random.nextInt(3);
                if (m.length >= width) {
                    int at = random.nextInt(m.length / width) * width;
                    Arrays.fill(m, at, at + width, (byte) 0xff);
                    if (random.nextBoolean()) {
                        Arrays.fill(m, at, at + width - 1, (byte) 0);
                        m[at + width - 1] = (byte) 0x80;
                    }
                }
                return m;
            }
            default -> {
                return valid;
            }
        }
    }
}
