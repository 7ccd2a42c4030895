package org.sperli.vectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;
import static org.sperli.protocol.LeBytes.le;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.opentest4j.AssertionFailedError;
import org.sperli.ElementType;
import org.sperli.ErrorCode;
import org.sperli.ReduceOp;
import org.sperli.SperliException;
import org.sperli.checkpoint.CommitFile;
import org.sperli.checkpoint.RankFileHeader;
import org.sperli.checkpoint.RankFiles;
import org.sperli.collective.Combine;
import org.sperli.jobspec.JobDescription;
import org.sperli.jobspec.JoinToken;
import org.sperli.protocol.CommitLayout;
import org.sperli.protocol.JobId;
import org.sperli.protocol.LeBytes;
import org.sperli.protocol.frame.FrameHeader;
import org.sperli.protocol.frame.FrameType;
import org.sperli.protocol.frame.Frames;
import org.sperli.protocol.frame.HeaderCheck;
import org.sperli.protocol.frame.HeaderVerdict;
import org.sperli.protocol.frame.ReceiverContext;
import org.sperli.protocol.payload.Abort;
import org.sperli.protocol.payload.ChunkSequence;
import org.sperli.protocol.payload.CkptAck;
import org.sperli.protocol.payload.CkptBegin;
import org.sperli.protocol.payload.CkptData;
import org.sperli.protocol.payload.CollectiveHeader;
import org.sperli.protocol.payload.Heartbeat;
import org.sperli.protocol.payload.Hello;
import org.sperli.protocol.payload.Resume;
import org.sperli.runtime.MeshScheduleFrames;
import org.sperli.vectors.VectorsFile.Record;

/**
 * Every record of {@code docs/sperli-vectors.txt} (written by the independent {@code scripts/sperli-vectors.py})
 * against the Java codecs, in both directions: the bytes decode to the record's fields and verdict, and the fields
 * encode to the record's bytes. One dynamic test per record, named after it, plus one for the coverage of kinds and
 * frame types; every failure message starts with the record's name and line.
 *
 * <p>Each record must be fully used: a field that no check looked at fails the record, so a new field in the vectors
 * cannot go unchecked. Where a Java decoder refuses a record, the record's fields cannot come from Java; they are then
 * checked against the bytes with a little-endian layout written here ({@link LeBytes}), so that the record is at least
 * consistent with itself.
 *
 * <p>To see the test fail, point it at a damaged copy: {@code -Dsperli.vectors=/tmp/broken.txt} (see
 * {@link VectorsFile}).
 */
class VectorsTest {
    /** The kinds this test knows, each of which the file must hold at least once. */
    static final List<String> KINDS =
            List.of("frame", "header", "payload", "rankfile", "commit", "token", "jobdesc", "reduce", "schedule");

    private static final HexFormat HEX = HexFormat.of();
    private static final byte[] RANKFILE_MAGIC = "SPRLCKPT".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] COMMIT_MAGIC = "SPRLCMIT".getBytes(StandardCharsets.US_ASCII);

    @TestFactory
    Stream<DynamicTest> vectors() {
        VectorsFile file = VectorsFile.load();
        List<DynamicTest> tests = new ArrayList<>();
        tests.add(dynamicTest("coverage: every kind, frames of every type", source(file, 1), () -> coverage(file)));
        for (Record r : file.records()) {
            tests.add(dynamicTest(r.name(), source(file, r.line()), () -> run(r)));
        }
        return tests.stream();
    }

    private static URI source(VectorsFile file, int line) {
        return URI.create(file.path().toUri() + "?line=" + line);
    }

    // ------------------------------------------------------------------ dispatch and coverage

    private static void run(Record r) {
        try {
            switch (r.kind()) {
                case "frame" -> frame(r, false);
                case "payload" -> frame(r, true);
                case "header" -> header(r);
                case "rankfile" -> rankfile(r);
                case "commit" -> commit(r);
                case "token" -> token(r);
                case "jobdesc" -> jobdesc(r);
                case "reduce" -> reduce(r);
                case "schedule" -> schedule(r);
                default -> fail("unknown kind '" + r.kind() + "': this test knows " + KINDS
                        + "; a new kind needs its check here");
            }
            List<String> unused = r.unusedKeys();
            assertTrue(unused.isEmpty(), () -> "fields that no check looked at: " + unused);
        } catch (AssertionFailedError e) {
            throw new AssertionFailedError(r.describe() + ": " + e.getMessage(), e);
        } catch (Exception e) {
            throw new AssertionFailedError(r.describe() + ": " + e, e);
        }
    }

    /** At least one record of every kind, frames of every type 1..11, and no kind this test does not know. */
    private static void coverage(VectorsFile file) {
        Map<String, Integer> kinds = new TreeMap<>();
        Set<Integer> frameTypes = new TreeSet<>();
        for (Record r : file.records()) {
            kinds.merge(r.kind(), 1, Integer::sum);
            // The raw text: the getters would mark the field used for the record's own test.
            String type = r.fields().get("type");
            if (r.kind().equals("frame") && type != null && type.matches("[0-9]{1,3}")) {
                frameTypes.add(Integer.parseInt(type));
            }
        }
        List<String> problems = new ArrayList<>();
        for (String k : KINDS) {
            if (!kinds.containsKey(k)) {
                problems.add("no record of kind '" + k + "'");
            }
        }
        for (String k : kinds.keySet()) {
            if (!KINDS.contains(k)) {
                problems.add("kind '" + k + "' is unknown to this test");
            }
        }
        for (FrameType t : FrameType.values()) {
            if (!frameTypes.contains(t.code())) {
                problems.add("no frame record of type " + t.code() + " (" + t + ")");
            }
        }
        assertTrue(problems.isEmpty(), () -> file.path() + ": " + problems + "; kinds found: " + kinds
                + ", frame types found: " + frameTypes);
    }

    // ------------------------------------------------------------------ outcomes and comparisons

    /** A verdict in the vectors' words ("accept", "drop n", "refuse Hnnnn") and Java's reason, if any. */
    private record Outcome(String verdict, String reason) {
        static final Outcome ACCEPT = new Outcome("accept", null);

        static Outcome of(HeaderVerdict v) {
            if (v instanceof HeaderVerdict.Accept) {
                return ACCEPT;
            }
            if (v instanceof HeaderVerdict.Drop d) {
                return new Outcome("drop " + d.discardBytes(), null);
            }
            HeaderVerdict.Refuse f = (HeaderVerdict.Refuse) v;
            return refuse(f.code(), f.reason());
        }

        static Outcome refuse(ErrorCode code, String reason) {
            return new Outcome("refuse " + code.name(), reason);
        }

        boolean accepted() {
            return verdict.equals("accept");
        }

        @Override
        public String toString() {
            return "'" + verdict + "'" + (reason == null ? "" : " (" + reason + ")");
        }
    }

    @FunctionalInterface
    private interface Body {
        void run();
    }

    /** Accept when {@code body} returns, the refusal's code when it throws a SperliException. */
    private static Outcome outcome(Body body) {
        try {
            body.run();
            return Outcome.ACCEPT;
        } catch (SperliException e) {
            return Outcome.refuse(e.code(), e.reason());
        }
    }

    private static void verdict(Record r, Outcome java) {
        String expected = r.string("verdict");
        assertTrue(expected.matches("accept|drop [0-9]+|refuse H[0-9]{4}"),
                () -> "verdict '" + expected + "' is not accept, drop <n> or refuse H<code>");
        assertEquals(expected, java.verdict(),
                () -> "verdict: the vectors say '" + expected + "', Java gives " + java);
    }

    private static void field(Record r, String key, long java) {
        long expected = r.integer(key);
        assertEquals(expected, java, () -> "field " + key + ": the vectors say " + Long.toUnsignedString(expected)
                + ", Java has " + Long.toUnsignedString(java));
    }

    private static void hexField(Record r, String key, byte[] java) {
        sameBytes("field " + key, r.hex(key), java);
    }

    private static void sameBytes(String what, byte[] expected, byte[] actual) {
        int at = Arrays.mismatch(expected, actual);
        if (at >= 0) {
            fail(what + ": differs at byte " + at + " (the vectors have " + expected.length + " bytes, Java "
                    + actual.length + "): the vectors " + window(expected, at) + ", Java " + window(actual, at));
        }
    }

    private static String window(byte[] b, int at) {
        int from = Math.max(0, at - 8);
        int to = Math.min(b.length, at + 8);
        return "[" + from + ".." + to + ") " + (from > 0 ? "..." : "") + HEX.formatHex(b, from, to)
                + (to < b.length ? "..." : "");
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    private static byte[] range(byte[] b, int from, int to) {
        return Arrays.copyOfRange(b, from, to);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    // ------------------------------------------------------------------ header, frame, payload

    private static ReceiverContext context(Record r) {
        return new ReceiverContext(JobId.of(r.hex("ctx_job_id")), r.int32("ctx_size"), r.int32("ctx_own_rank"),
                r.int32("ctx_peer_rank"), r.integer("ctx_incarnation"));
    }

    private static FrameHeader headerFields(Record r) {
        return new FrameHeader(r.integer("length"), r.int32("type"), r.int32("flags"), r.int32("service"),
                r.integer("membership_epoch"), JobId.of(r.hex("job_id")), r.integer("source"), r.integer("target"),
                r.integer("incarnation"), r.integer("tag"), r.integer("epoch"));
    }

    /** The 52 bytes decode to the fields (FrameHeader.read) and the fields encode to them (writeUnchecked). */
    private static void headerBothWays(FrameHeader fields, byte[] first52) {
        assertEquals(fields, FrameHeader.read(ByteBuffer.wrap(first52), 0), "FrameHeader.read of the header bytes");
        byte[] out = new byte[FrameHeader.LENGTH];
        fields.writeUnchecked(ByteBuffer.wrap(out), 0);
        sameBytes("header fields written by FrameHeader.writeUnchecked", first52, out);
    }

    /** HeaderCheck on a heap buffer at 0 and on a direct read-only buffer at 7; both must agree. */
    private static Outcome headerOutcome(byte[] frame, ReceiverContext ctx) {
        Outcome heap = Outcome.of(HeaderCheck.check(ByteBuffer.wrap(frame), 0, ctx));
        ByteBuffer embedded = LeBytes.embedded(frame);
        Outcome direct = Outcome.of(HeaderCheck.check(embedded, embedded.position(), ctx));
        assertEquals(heap.verdict(), direct.verdict(), "HeaderCheck on a heap and on a direct buffer");
        return heap;
    }

    private static void header(Record r) {
        ReceiverContext ctx = context(r);
        FrameHeader fields = headerFields(r);
        byte[] bytes = r.hex("bytes");
        assertEquals(FrameHeader.LENGTH, bytes.length, "a header record holds exactly the 52 header bytes");
        headerBothWays(fields, bytes);
        Outcome java = headerOutcome(bytes, ctx);
        verdict(r, java);
        if (java.accepted()) {
            // What a receiver accepts, the checking writer must write.
            sameBytes("FrameHeader.toBytes (checked) of an accepted header", bytes, fields.toBytes());
        }
    }

    /**
     * A whole frame as a receiver judges it: the header check, then (accepted) the payload rules of its type.
     * The record's bytes must hold exactly the header's length of payload; a cut frame would be H1610.
     */
    private static Outcome judgeFrame(byte[] frame, ReceiverContext ctx) {
        Outcome header = headerOutcome(frame, ctx);
        if (!header.accepted()) {
            return header;
        }
        FrameHeader h = FrameHeader.read(ByteBuffer.wrap(frame), 0);
        if (frame.length - FrameHeader.LENGTH != h.length()) {
            return Outcome.refuse(ErrorCode.H1610, "payload of " + (frame.length - FrameHeader.LENGTH)
                    + " bytes, header length=" + h.length());
        }
        byte[] payload = range(frame, FrameHeader.LENGTH, frame.length);
        return outcome(() -> judgePayload(h, payload, ctx));
    }

    /** The payload rules of tables section 2 through the Java codecs; throws the refusal. */
    private static void judgePayload(FrameHeader h, byte[] payload, ReceiverContext ctx) {
        ByteBuffer p = LeBytes.embedded(payload);
        switch (h.frameType()) {
            case HELLO -> {
                Hello hello = Hello.read(p);
                JoinToken t = JoinToken.read(ByteBuffer.wrap(hello.token()));
                // The HELLO receiver's field comparisons within the vectors' scope (no signature, host or expiry,
                // which org.sperli.jobspec.JoinTokens.verify checks with the job key and a clock).
                if (!t.jobId().equals(ctx.jobId()) || t.rank() != h.sourceRank() || t.size() != ctx.jobSize()
                        || t.incarnation() != ctx.incarnation()) {
                    throw new SperliException(ErrorCode.H1614, "token is for another job, rank, size or incarnation: "
                            + t);
                }
            }
            case DATA, BYE -> {
                // raw bytes, or nothing: the header check already judged the length
            }
            case COLLECTIVE -> CollectiveHeader.read(p);
            case HEARTBEAT -> Heartbeat.read(p);
            case ABORT -> Abort.read(p);
            case CKPT_BEGIN -> CkptBegin.read(p).check(ctx.jobSize());
            case CKPT_DATA -> CkptData.read(p);
            case CKPT_ACK -> CkptAck.read(p);
            case CKPT_COMMIT -> CommitFile.read(p).expect(ctx.jobId(), h.epoch(), ctx.jobSize());
            case RESUME -> {
                Resume resume = Resume.read(p, ctx.jobSize());
                if (resume.hasCommit()) {
                    CommitFile.read(resume.commit()).expect(ctx.jobId(), h.epoch(), ctx.jobSize());
                }
            }
        }
    }

    /** The codec's decoder alone, without anything that needs the receiver (RESUME needs the size for its length). */
    private static void readContextFree(int type, byte[] payload, int jobSize) {
        ByteBuffer p = ByteBuffer.wrap(payload);
        switch (FrameType.ofCode(type)) {
            case HELLO -> Hello.read(p);
            case DATA, BYE -> {
            }
            case COLLECTIVE -> CollectiveHeader.read(p);
            case HEARTBEAT -> Heartbeat.read(p);
            case ABORT -> Abort.read(p);
            case CKPT_BEGIN -> CkptBegin.read(p);
            case CKPT_DATA -> CkptData.read(p);
            case CKPT_ACK -> CkptAck.read(p);
            case CKPT_COMMIT -> CommitFile.read(p);
            case RESUME -> {
                Resume resume = Resume.read(p, jobSize);
                if (resume.hasCommit()) {
                    CommitFile.read(resume.commit());
                }
            }
        }
    }

    /** frame (valid frames) and payload (header passes, payload refused). */
    private static void frame(Record r, boolean payloadKind) {
        ReceiverContext ctx = context(r);
        FrameHeader fields = headerFields(r);
        FrameType type = fields.frameType();
        assertTrue(type != null, () -> "type " + fields.type() + " is not a frame type");
        byte[] bytes = r.hex("bytes");
        assertTrue(bytes.length >= FrameHeader.LENGTH, "bytes shorter than a frame header");
        headerBothWays(fields, range(bytes, 0, FrameHeader.LENGTH));
        byte[] payload = range(bytes, FrameHeader.LENGTH, bytes.length);

        Outcome java = judgeFrame(bytes, ctx);
        verdict(r, java);

        if (payloadKind) {
            Outcome header = headerOutcome(range(bytes, 0, FrameHeader.LENGTH), ctx);
            assertTrue(header.accepted(), () -> "a payload record's header must pass; HeaderCheck gives " + header);
            assertTrue(java.verdict().startsWith("refuse "), "a payload record's payload must be refused");
            // Java's decoder refused, so the fields cannot come from it: check them against the bytes here.
            sameBytes("payload bytes vs the record's payload fields (layout in this test)", payload,
                    rawPayload(type, r));
            // Whatever Java's encoder writes from these fields, it must not be bytes its own decoder refuses without
            // knowing the receiver: either it refuses them, or writes other bytes, or the refusal needs the context.
            byte[] encoded;
            try {
                encoded = encodePayload(type, r);
            } catch (IllegalArgumentException refusedByEncoder) {
                return;
            }
            if (Arrays.equals(encoded, payload)) {
                Outcome alone = outcome(() -> readContextFree(type.code(), payload, ctx.jobSize()));
                assertTrue(alone.accepted(), () -> "Java's encoder writes these refused payload bytes, and its "
                        + "decoder refuses them without any context: " + alone);
            }
            return;
        }

        if (!java.accepted()) {
            return;
        }
        decodedPayloadFields(type, r, payload, ctx);
        // Encode: FrameHeader.of (the sender's constructor) and the payload codec, through Frames.encode.
        FrameHeader sent = FrameHeader.of(type, fields.length(), fields.jobId(), (int) fields.sourceRank(),
                (int) fields.targetRank(), fields.incarnation(), fields.tag(), fields.epoch());
        assertEquals(fields, sent, "FrameHeader.of with the record's fields");
        byte[] encodedPayload = encodePayload(type, r);
        sameBytes("payload encoded from the fields", payload, encodedPayload);
        sameBytes("Frames.encode of the header and payload", bytes, bytes(Frames.encode(sent, encodedPayload)));
    }

    /** The payload decoded by the Java codec (from a direct read-only buffer at position 7) against the fields. */
    private static void decodedPayloadFields(FrameType type, Record r, byte[] payload, ReceiverContext ctx) {
        ByteBuffer p = LeBytes.embedded(payload);
        switch (type) {
            case HELLO -> {
                Hello hello = Hello.read(p);
                field(r, "version", hello.version());
                field(r, "features", hello.features());
                field(r, "token_length", hello.token().length);
                hexField(r, "token", hello.token());
            }
            case DATA -> hexField(r, "message", payload);
            case COLLECTIVE -> {
                CollectiveHeader c = CollectiveHeader.read(p);
                field(r, "operation", c.operation());
                field(r, "element_type", c.elementType());
                field(r, "reduce_op", c.reduceOp());
                field(r, "phase", c.phase());
                field(r, "root", c.root());
                field(r, "sequence", c.sequence());
                hexField(r, "data", bytes(CollectiveHeader.data(p)));
            }
            case HEARTBEAT -> field(r, "counter", Heartbeat.read(p).counter());
            case ABORT -> {
                Abort a = Abort.read(p);
                field(r, "reason", a.reason());
                field(r, "code", a.code());
                byte[] message = a.message().getBytes(StandardCharsets.UTF_8);
                field(r, "message_length", message.length);
                hexField(r, "message", message);
            }
            case CKPT_BEGIN -> {
                CkptBegin b = CkptBegin.read(p);
                field(r, "version", b.version());
                field(r, "size", b.size());
            }
            case CKPT_DATA -> {
                CkptData d = CkptData.read(p);
                field(r, "chunk_kind", d.kind());
                // Java keeps no field for the three zero bytes: having accepted them, they are zero.
                hexField(r, "reserved", new byte[3]);
                field(r, "file_rank", d.fileRank());
                field(r, "offset", d.offset());
                field(r, "total", d.total());
                hexField(r, "chunk", bytes(d.chunk()));
                if (d.carriesChunk()) {
                    new ChunkSequence().accept(d); // the vectors' chunks are the first of their file
                }
            }
            case CKPT_ACK -> hexField(r, "sha256", CkptAck.read(p).sha256());
            case CKPT_COMMIT -> {
                hexField(r, "commit", payload);
                CommitFile c = CommitFile.read(p);
                sameBytes("CommitFile.read then toBytes", payload, c.toBytes());
            }
            case RESUME -> {
                Resume res = Resume.read(p, ctx.jobSize());
                field(r, "status", res.status());
                byte[] commit = res.hasCommit() ? bytes(res.commit()) : new byte[0];
                hexField(r, "commit", commit);
                if (res.hasCommit()) {
                    sameBytes("CommitFile.read then toBytes", commit, CommitFile.read(res.commit()).toBytes());
                }
            }
            case BYE -> assertEquals(0, payload.length, "BYE payload");
        }
    }

    /** The payload the Java encoders write from the record's fields. */
    private static byte[] encodePayload(FrameType type, Record r) {
        return switch (type) {
            case HELLO -> new Hello(r.integer("version"), r.integer("features"), r.hex("token")).toBytes();
            case DATA -> r.hex("message");
            case COLLECTIVE -> concat(new CollectiveHeader(r.int32("operation"), r.int32("element_type"),
                    r.int32("reduce_op"), r.int32("phase"), r.integer("root"), r.integer("sequence")).toBytes(),
                    r.hex("data"));
            case HEARTBEAT -> new Heartbeat(r.integer("counter")).toBytes();
            case ABORT -> new Abort(r.integer("reason"), r.integer("code"),
                    new String(r.hex("message"), StandardCharsets.UTF_8)).toBytes();
            case CKPT_BEGIN -> new CkptBegin(r.integer("version"), r.integer("size")).toBytes();
            case CKPT_DATA -> new CkptData(r.int32("chunk_kind"), r.integer("file_rank"), r.integer("offset"),
                    r.integer("total"), ByteBuffer.wrap(r.hex("chunk"))).toBytes();
            case CKPT_ACK -> new CkptAck(r.hex("sha256")).toBytes();
            case CKPT_COMMIT -> r.hex("commit"); // the payload is the COMMIT file itself
            case RESUME -> {
                byte[] commit = r.hex("commit");
                yield new Resume(r.integer("status"), commit.length == 0 ? null : ByteBuffer.wrap(commit)).toBytes();
            }
            case BYE -> new byte[0];
        };
    }

    /** The payload laid out from the record's fields by this test (tables section 2), not by the Java codecs. */
    private static byte[] rawPayload(FrameType type, Record r) {
        return switch (type) {
            case HELLO -> le().u32(r.integer("version")).u64(r.integer("features")).u32(r.integer("token_length"))
                    .bytes(r.hex("token")).toBytes();
            case DATA -> r.hex("message");
            case COLLECTIVE -> le().u8(r.integer("operation")).u8(r.integer("element_type"))
                    .u8(r.integer("reduce_op")).u8(r.integer("phase")).u32(r.integer("root"))
                    .u64(r.integer("sequence")).bytes(r.hex("data")).toBytes();
            case HEARTBEAT -> le().u64(r.integer("counter")).toBytes();
            case ABORT -> le().u32(r.integer("reason")).u32(r.integer("code")).u16(r.integer("message_length"))
                    .bytes(r.hex("message")).toBytes();
            case CKPT_BEGIN -> le().u32(r.integer("version")).u32(r.integer("size")).toBytes();
            case CKPT_DATA -> {
                byte[] reserved = r.hex("reserved");
                assertEquals(3, reserved.length, "reserved is 3 bytes");
                yield le().u8(r.integer("chunk_kind")).bytes(reserved).u32(r.integer("file_rank"))
                        .u64(r.integer("offset")).u64(r.integer("total")).bytes(r.hex("chunk")).toBytes();
            }
            case CKPT_ACK -> r.hex("sha256");
            case CKPT_COMMIT -> r.hex("commit");
            case RESUME -> le().u32(r.integer("status")).bytes(r.hex("commit")).toBytes();
            case BYE -> new byte[0];
        };
    }

    // ------------------------------------------------------------------ rank file

    private static void rankfile(Record r) {
        byte[] bytes = r.hex("bytes");
        JobId job = JobId.of(r.hex("expect_job_id"));
        long epoch = r.integer("expect_epoch");
        long rank = r.integer("expect_rank");
        long size = r.integer("expect_size");

        RankFileHeader[] read = new RankFileHeader[1];
        // The reader's order: read (length, magic, version), expect (epoch, job id, rank: H1619; size: H1623; file
        // length: H1619), then the state's SHA-256 (H1620).
        Outcome java = outcome(() -> {
            RankFileHeader h = RankFileHeader.read(ByteBuffer.wrap(bytes, 0, Math.min(bytes.length,
                    RankFileHeader.LENGTH)));
            read[0] = h;
            h.expect(job, epoch, rank, size, bytes.length);
            RankFiles.verifyState(h, ByteBuffer.wrap(bytes, RankFileHeader.LENGTH,
                    bytes.length - RankFileHeader.LENGTH));
        });
        Outcome whole = outcome(() -> RankFiles.verifyFile(LeBytes.embedded(bytes), job, epoch, rank, size));
        assertEquals(java.verdict(), whole.verdict(), () -> "RankFiles.verifyFile gives " + whole
                + ", read + expect + verifyState " + java);
        verdict(r, java);

        RankFileHeader h = read[0];
        if (h == null) {
            byte[] raw = le().bytes(r.hex("magic")).u32(r.integer("version")).u32(r.integer("epoch"))
                    .bytes(r.hex("job_id")).u32(r.integer("rank")).u32(r.integer("size"))
                    .u64(r.integer("state_length")).bytes(r.hex("state_sha256")).bytes(r.hex("state")).toBytes();
            sameBytes("bytes vs the record's fields (layout in this test; Java's read refused)", bytes, raw);
            return;
        }
        hexField(r, "magic", RANKFILE_MAGIC);
        field(r, "version", h.version());
        field(r, "epoch", h.epoch());
        hexField(r, "job_id", h.jobId().toBytes());
        field(r, "rank", h.rank());
        field(r, "size", h.size());
        field(r, "state_length", h.stateLength());
        hexField(r, "state_sha256", h.stateSha256());
        hexField(r, "state", range(bytes, RankFileHeader.LENGTH, bytes.length));
        // Encode the header from the record's fields: the same 80 bytes (the writer checks nothing contextual).
        RankFileHeader fromFields = new RankFileHeader(r.integer("version"), r.integer("epoch"),
                JobId.of(r.hex("job_id")), r.integer("rank"), r.integer("size"), r.integer("state_length"),
                r.hex("state_sha256"));
        assertEquals(h, fromFields, "RankFileHeader from the fields vs RankFileHeader.read");
        sameBytes("RankFileHeader.toBytes from the fields", range(bytes, 0, RankFileHeader.LENGTH),
                fromFields.toBytes());
        if (java.accepted()) {
            ByteBuffer state = ByteBuffer.wrap(bytes, RankFileHeader.LENGTH, bytes.length - RankFileHeader.LENGTH);
            RankFileHeader forState = RankFileHeader.forState(h.jobId(), h.epoch(), h.rank(), h.size(), state);
            sameBytes("RankFileHeader.forState of the state", range(bytes, 0, RankFileHeader.LENGTH),
                    forState.toBytes());
        }
    }

    // ------------------------------------------------------------------ COMMIT file

    private static void commit(Record r) {
        byte[] bytes = r.hex("bytes");
        JobId job = JobId.of(r.hex("expect_job_id"));
        long epoch = r.integer("expect_epoch");
        long size = r.integer("expect_size");

        CommitFile[] read = new CommitFile[1];
        Outcome java = outcome(() -> {
            CommitFile c = CommitFile.read(ByteBuffer.wrap(bytes));
            read[0] = c;
            c.expect(job, epoch, size);
        });
        verdict(r, java);

        int n = r.int32("size");
        List<byte[]> hashes = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            hashes.add(r.hex("hash_" + i));
        }
        CommitFile c = read[0];
        if (c == null) {
            LeBytes signed = le().bytes(r.hex("magic")).u32(r.integer("version")).u32(r.integer("epoch"))
                    .bytes(r.hex("job_id")).u32(n);
            hashes.forEach(signed::bytes);
            byte[] signedPart = signed.toBytes();
            hexField(r, "signed_part", signedPart);
            byte[] raw = le().bytes(signedPart).u16(r.integer("sig_length")).bytes(r.hex("signature")).toBytes();
            sameBytes("bytes vs the record's fields (layout in this test; Java's read refused)", bytes, raw);
            return;
        }
        hexField(r, "magic", COMMIT_MAGIC);
        field(r, "version", c.version());
        field(r, "epoch", c.epoch());
        hexField(r, "job_id", c.jobId().toBytes());
        assertEquals(n, c.size(), "field size");
        for (int i = 0; i < n; i++) {
            sameBytes("field hash_" + i, hashes.get(i), c.rankFileSha256(i));
        }
        field(r, "sig_length", CommitLayout.SIGNATURE_LENGTH); // read refuses any other value
        hexField(r, "signature", c.signature());
        hexField(r, "signed_part", c.signedPart());
        sameBytes("CommitFile.read then toBytes", bytes, c.toBytes());
        // Encode from the record's fields.
        CommitFile fromFields = new CommitFile(r.integer("version"), r.integer("epoch"), JobId.of(r.hex("job_id")),
                n, hashes, r.hex("signature"));
        assertEquals(c, fromFields, "CommitFile from the fields vs CommitFile.read");
        sameBytes("signedPart from the fields", r.hex("signed_part"), fromFields.signedPart());
        sameBytes("toBytes from the fields", bytes, fromFields.toBytes());
    }

    // ------------------------------------------------------------------ join token

    private static void token(Record r) {
        byte[] bytes = r.hex("bytes");
        JoinToken t = JoinToken.read(ByteBuffer.wrap(bytes));
        hexField(r, "job_id", t.jobId().toBytes());
        field(r, "rank", t.rank());
        field(r, "size", t.size());
        field(r, "incarnation", t.incarnation());
        field(r, "expiry_ms", t.expiryMs());
        field(r, "host_length", t.host().length());
        assertEquals(r.string("host"), t.host(), "field host");
        field(r, "sig_length", JoinToken.SIGNATURE_LENGTH); // read refuses any other value
        hexField(r, "signature", t.signature());
        hexField(r, "signed_part", t.signedPart());
        sameBytes("JoinToken.read then toBytes", bytes, t.toBytes());
        // Encode from the record's fields: unsigned, its signed part, then with the signature.
        JoinToken unsigned = JoinToken.unsigned(JobId.of(r.hex("job_id")), r.integer("rank"), r.integer("size"),
                r.integer("incarnation"), r.integer("expiry_ms"), r.string("host"));
        sameBytes("signedPart of JoinToken.unsigned from the fields", r.hex("signed_part"), unsigned.signedPart());
        JoinToken signed = unsigned.withSignature(r.hex("signature"));
        assertEquals(t, signed, "JoinToken from the fields vs JoinToken.read");
        sameBytes("toBytes from the fields", bytes, signed.toBytes());
    }

    // ------------------------------------------------------------------ job description

    private static void jobdesc(Record r) {
        String line = r.string("line");
        JobDescription[] parsed = new JobDescription[1];
        Outcome java = outcome(() -> parsed[0] = JobDescription.parseLine(line.getBytes(StandardCharsets.ISO_8859_1)));
        verdict(r, java);
        if (!r.has("format_version")) {
            return; // a damaged line: line and verdict only
        }
        int size = r.int32("size");
        List<JobDescription.HostEntry> hosts = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            hosts.add(new JobDescription.HostEntry(r.string("host_" + i + "_name"), r.int32("host_" + i + "_port")));
        }
        JobDescription fromFields = new JobDescription(r.int32("format_version"), JobId.of(r.hex("job_id")), size,
                r.int32("rank"), r.integer("incarnation"), r.integer("silence_ms"), hosts, pem(r, "ca_pem"),
                pem(r, "cert_pem"), pem(r, "key_pem"), r.hex("token"), r.hex("signing_key"), r.hex("public_key"));
        JobDescription d = parsed[0];
        if (d == null) {
            // Refused: the encoder must refuse the same fields, and the fields must make the line.
            assertThrows(IllegalArgumentException.class, fromFields::encodedLength,
                    "JobDescription encoder accepts a description the parser refuses");
            assertEquals(line, HEX.formatHex(rawJobdesc(r, hosts)),
                    "line vs the record's fields (layout in this test; Java's parser refused)");
            return;
        }
        field(r, "format_version", d.formatVersion());
        hexField(r, "job_id", d.jobId().toBytes());
        field(r, "size", d.size());
        field(r, "rank", d.rank());
        field(r, "incarnation", d.incarnation());
        field(r, "silence_ms", d.silenceMs());
        assertEquals(hosts, d.hosts(), "host list (host_<i>_port, host_<i>_name)");
        hexField(r, "ca_pem", d.caCertPem().getBytes(StandardCharsets.ISO_8859_1));
        hexField(r, "cert_pem", d.rankCertPem().getBytes(StandardCharsets.ISO_8859_1));
        hexField(r, "key_pem", d.rankKeyPem().getBytes(StandardCharsets.ISO_8859_1));
        hexField(r, "token", d.token());
        hexField(r, "signing_key", d.jobSigningKey());
        hexField(r, "public_key", d.jobPublicKey());
        assertNull(d.structuralFault(), "structuralFault of the parsed description");
        assertEquals(d, fromFields, "JobDescription from the fields vs parseLine");
        assertEquals(line + "\n", fromFields.toHexLine(), "toHexLine from the fields");
        assertEquals(line + "\n", d.toHexLine(), "parseLine then toHexLine");
    }

    private static String pem(Record r, String key) {
        return new String(r.hex(key), StandardCharsets.ISO_8859_1);
    }

    private static byte[] rawJobdesc(Record r, List<JobDescription.HostEntry> hosts) {
        LeBytes out = le().u16(r.integer("format_version")).bytes(r.hex("job_id")).u32(r.integer("size"))
                .u32(r.integer("rank")).u32(r.integer("incarnation")).u32(r.integer("silence_ms"));
        for (JobDescription.HostEntry e : hosts) {
            byte[] host = e.host().getBytes(StandardCharsets.ISO_8859_1);
            out.u16(e.port()).u8(host.length).bytes(host);
        }
        for (String key : List.of("ca_pem", "cert_pem", "key_pem")) {
            byte[] v = r.hex(key);
            out.u32(v.length).bytes(v);
        }
        byte[] token = r.hex("token");
        byte[] signingKey = r.hex("signing_key");
        return out.u16(token.length).bytes(token).u32(signingKey.length).bytes(signingKey).bytes(r.hex("public_key"))
                .toBytes();
    }

    // ------------------------------------------------------------------ reduce

    /** A mesh schedule (feature bit 1): the real schedules run over queues send exactly the record's frames. */
    private static void schedule(Record r) {
        MeshScheduleFrames java = MeshScheduleFrames.of(r.int32("operation"), r.int32("type"), r.int32("op"),
                r.int32("size"), r.int32("root"), r.int32("data_length"));
        assertEquals(r.string("schedule"), java.schedule(), "schedule");
        assertEquals(r.string("bounds"), java.bounds(), "bounds");
        assertEquals(r.string("frames"), java.frames(), "frames");
    }

    private static void reduce(Record r) {
        int typeCode = r.int32("type");
        int opCode = r.int32("op");
        byte[] a = r.hex("a");
        byte[] b = r.hex("b");
        assertTrue(r.has("result") != r.has("refuse"), "a reduce record has either result or refuse");
        ElementType type = ElementType.ofCode(typeCode);
        ReduceOp op = ReduceOp.ofCode(opCode);

        byte[][] result = new byte[1][];
        Outcome java = outcome(() -> {
            Combine.check(typeCode, opCode, a.length);
            Combine.check(typeCode, opCode, b.length);
            result[0] = Combine.combine(a, b, type, op);
        });
        if (r.has("refuse")) {
            String expected = "refuse " + r.string("refuse");
            assertEquals(expected, java.verdict(), () -> "the vectors say '" + expected + "', Java gives " + java);
            if (type != null && op != null) {
                // The in-place form refuses too, before writing anything.
                DirectPair pair = new DirectPair(a, b);
                SperliException e = assertThrows(SperliException.class, () -> Combine.into(pair.acc, pair.b, type, op),
                        "Combine.into on direct buffers accepts what the vectors refuse");
                assertEquals(r.string("refuse"), e.code().name(), "Combine.into refusal code");
                sameBytes("direct acc after a refused Combine.into", a, pair.accBytes());
                pair.assertUntouched();
            }
            return;
        }
        assertEquals("accept", java.verdict(), () -> "the vectors give a result, Java refuses: " + java);
        byte[] expected = r.hex("result");
        sameBytes("result of Combine.combine", expected, result[0]);
        DirectPair pair = new DirectPair(a, b);
        Combine.into(pair.acc, pair.b, type, op);
        sameBytes("result of Combine.into on direct buffers", expected, pair.accBytes());
        pair.assertUntouched();
    }

    /**
     * Operands in direct buffers, as a transport holds them: acc at position 8 of a larger buffer with guard bytes on
     * both sides, b read-only at position 3 with its own guards.
     */
    private static final class DirectPair {
        private static final int ACC_AT = 8;
        private static final int B_AT = 3;
        private static final byte ACC_GUARD = 0x5a;
        private static final byte B_GUARD = (byte) 0xa5;

        final ByteBuffer acc;
        final ByteBuffer b;
        private final ByteBuffer accWhole;
        private final ByteBuffer bWhole;
        private final int accLength;
        private final int bLength;
        private final byte[] bOriginal;

        DirectPair(byte[] a, byte[] bBytes) {
            accLength = a.length;
            bLength = bBytes.length;
            bOriginal = bBytes.clone();
            accWhole = ByteBuffer.allocateDirect(a.length + 2 * ACC_AT);
            for (int i = 0; i < accWhole.capacity(); i++) {
                accWhole.put(i, ACC_GUARD);
            }
            accWhole.put(ACC_AT, a);
            bWhole = ByteBuffer.allocateDirect(bBytes.length + 2 * B_AT);
            for (int i = 0; i < bWhole.capacity(); i++) {
                bWhole.put(i, B_GUARD);
            }
            bWhole.put(B_AT, bBytes);
            acc = accWhole.duplicate().position(ACC_AT).limit(ACC_AT + a.length);
            b = bWhole.duplicate().position(B_AT).limit(B_AT + bBytes.length).asReadOnlyBuffer();
        }

        byte[] accBytes() {
            byte[] out = new byte[accLength];
            accWhole.get(ACC_AT, out);
            return out;
        }

        void assertUntouched() {
            assertEquals(ACC_AT, acc.position(), "acc position after Combine.into");
            assertEquals(ACC_AT + accLength, acc.limit(), "acc limit after Combine.into");
            assertEquals(B_AT, b.position(), "b position after Combine.into");
            assertEquals(B_AT + bLength, b.limit(), "b limit after Combine.into");
            for (int i = 0; i < accWhole.capacity(); i++) {
                if (i < ACC_AT || i >= ACC_AT + accLength) {
                    assertEquals(ACC_GUARD, accWhole.get(i), "guard byte " + i + " around acc");
                }
            }
            for (int i = 0; i < bWhole.capacity(); i++) {
                byte expected = i < B_AT || i >= B_AT + bLength ? B_GUARD : bOriginal[i - B_AT];
                assertEquals(expected, bWhole.get(i), "byte " + i + " of b's buffer");
            }
        }
    }
}
