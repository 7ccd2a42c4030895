package org.sperli;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Supplier;

/**
 * The collectives and messages of {@link Communicator} over an {@link ArrayType}: values are encoded, the byte forms
 * run, and what arrives is decoded. The wire is exactly that of the byte forms.
 *
 * <p><b>Every call counts.</b> A call refused at one rank must still take its sequence number, or that rank's next
 * collective would answer the others' current one. So a value this rank cannot encode (a null type, a refusal of
 * the type, an encoding over {@link Communicator#MAX_COLLECTIVE_DATA}) is not thrown at once: the byte form runs
 * with null data, which it refuses counted (or, for the root's scatter blocks, ends the job with ABORT reason 4),
 * and then the encoding's own refusal is thrown, H1618, with the byte form's refusal suppressed in it. A rank that
 * only receives completes the call and then refuses a null type.
 *
 * <p>Decoding what arrived happens after the call completed on the wire: a refusal there (H1618, naming the call and
 * the sending rank) is this rank's alone and the job goes on. The one exception is the root's fold of values with a
 * shape, which runs inside the call: a contribution it refuses ends the job (ABORT reason 3, code 1618).
 */
final class ArrayTypeCollectives {
    private ArrayTypeCollectives() {
    }

    /** This rank's encoded data, or null with the refusal to throw once the byte form counted the call. */
    private record Encoded(byte[] bytes, SperliException failure) {
        static final Encoded NONE = new Encoded(null, null);
    }

    static <T> T bcast(Communicator comm, int root, T valueAtRoot, ArrayType<T> type) {
        boolean atRoot = root == comm.rank();
        Encoded data = atRoot ? encode(type, valueAtRoot, "value") : Encoded.NONE;
        byte[] got = counted(data, type, () -> comm.bcast(root, data.bytes()));
        return atRoot ? valueAtRoot : decode(type, got, "bcast from rank " + root);
    }

    static <T> List<T> gather(Communicator comm, int root, T value, ArrayType<T> type) {
        Encoded data = encode(type, value, "value");
        List<byte[]> blocks = counted(data, type, () -> comm.gather(root, data.bytes()));
        if (blocks == null) {
            return null;
        }
        List<T> out = new ArrayList<>(blocks.size());
        for (int r = 0; r < blocks.size(); r++) {
            out.add(r == root ? value : decode(type, blocks.get(r), "gather at rank " + root + ", block of rank " + r));
        }
        return Collections.unmodifiableList(out);
    }

    static <T> T scatter(Communicator comm, int root, List<T> valuesAtRoot, ArrayType<T> type) {
        if (root != comm.rank()) {
            byte[] got = counted(Encoded.NONE, type, () -> comm.scatter(root, null));
            return decode(type, got, "scatter from rank " + root);
        }
        SperliException failure = null;
        List<byte[]> blocks = null;
        if (valuesAtRoot != null && valuesAtRoot.size() != comm.size()) {
            // The byte form refuses the count; nothing is worth encoding.
            blocks = Collections.nCopies(valuesAtRoot.size(), new byte[0]);
        } else if (valuesAtRoot != null) {
            blocks = new ArrayList<>(valuesAtRoot.size());
            for (int r = 0; r < valuesAtRoot.size(); r++) {
                Encoded block = encode(type, valuesAtRoot.get(r), "block " + r);
                blocks.add(block.bytes());
                failure = failure != null ? failure : block.failure();
            }
        }
        List<byte[]> sent = blocks;
        counted(new Encoded(null, failure), type, () -> comm.scatter(root, sent));
        return valuesAtRoot.get(root);
    }

    static <T> T reduce(Communicator comm, int root, T value, ReduceOp op, ArrayType<T> type) {
        Encoded data = encode(type, value, "value");
        ElementType elementType = elementType(type, value);
        boolean combine = type == null || type.isFlat();
        byte[] got = counted(data, type, () -> combine ? comm.reduce(root, data.bytes(), elementType, op)
                : comm.reduce(root, data.bytes(), elementType, op, new TypeFold<>(type, op)));
        return got == null ? null : decode(type, got, "reduce result at rank " + root);
    }

    static <T> T allreduce(Communicator comm, T value, ReduceOp op, ArrayType<T> type) {
        Encoded data = encode(type, value, "value");
        ElementType elementType = elementType(type, value);
        boolean combine = type == null || type.isFlat();
        byte[] got = counted(data, type, () -> combine ? comm.allreduce(data.bytes(), elementType, op)
                : comm.allreduce(data.bytes(), elementType, op, new TypeFold<>(type, op)));
        return decode(type, got, "allreduce result from rank 0");
    }

    static <T> void send(Communicator comm, int dest, int tag, T value, ArrayType<T> type) {
        requireType(type);
        if (value == null) {
            throw refused("value=null");
        }
        int length = type.encodedLength(value);
        if (length > Communicator.MAX_MESSAGE) {
            throw refused("encoded message of " + length + " bytes, maximum " + Communicator.MAX_MESSAGE
                    + "; split it");
        }
        comm.send(dest, tag, type.toBytes(value));
    }

    static <T> T recv(Communicator comm, int source, int tag, ArrayType<T> type) {
        requireType(type);
        return decode(type, comm.recv(source, tag), "message from rank " + source + " with tag " + tag);
    }

    // encoding with the refusal held back

    private static <T> Encoded encode(ArrayType<T> type, T value, String what) {
        if (type == null) {
            return new Encoded(null, refused("type=null"));
        }
        if (value == null) {
            // The byte form refuses null data itself, with its own message.
            return Encoded.NONE;
        }
        try {
            int length = type.encodedLength(value);
            if (length > Communicator.MAX_COLLECTIVE_DATA) {
                return new Encoded(null, refused(what + ": encoded length=" + length + ", maximum "
                        + Communicator.MAX_COLLECTIVE_DATA));
            }
            return new Encoded(type.toBytes(value), null);
        } catch (RuntimeException e) {
            return new Encoded(null, withContext(e, what + " refused by " + type));
        }
    }

    /**
     * Runs the byte form, then throws the held-back refusal if there is one. The byte form got null data for it and
     * so refused the call (H1618, counted); if it failed otherwise (the job had already ended), that failure wins.
     */
    private static <R> R counted(Encoded data, ArrayType<?> type, Supplier<R> byteForm) {
        R result;
        try {
            result = byteForm.get();
        } catch (SperliException e) {
            if (data.failure() != null && e.code() == ErrorCode.H1618) {
                data.failure().addSuppressed(e);
                throw data.failure();
            }
            throw e;
        }
        if (data.failure() != null) {
            throw data.failure();
        }
        requireType(type);
        return result;
    }

    private static <T> ElementType elementType(ArrayType<T> type, T value) {
        return type == null || value == null ? null : type.elementType(value);
    }

    private static <T> T decode(ArrayType<T> type, byte[] bytes, String what) {
        try {
            return type.decode(ByteBuffer.wrap(bytes));
        } catch (RuntimeException e) {
            throw withContext(e, what);
        }
    }

    private static void requireType(ArrayType<?> type) {
        if (type == null) {
            throw refused("type=null");
        }
    }

    /** {@code e} as H1618 with {@code what} in front: a type's refusal keeps its code, anything else becomes H1618. */
    private static SperliException withContext(RuntimeException e, String what) {
        if (e instanceof SperliException s) {
            return new SperliException(s.code(), what + ": " + s.reason(), s);
        }
        return new SperliException(ErrorCode.H1618, what + ": " + e, e);
    }

    private static SperliException refused(String reason) {
        return new SperliException(ErrorCode.H1618, reason);
    }

    /**
     * The root's fold for values with a shape: each contribution decoded, then folded into the accumulator with the
     * type's {@link ArrayType#reduce}, the accumulator as the left operand.
     */
    private static final class TypeFold<T> implements ContributionFold {
        private final ArrayType<T> type;
        private final ReduceOp op;
        private T acc;
        private boolean started;

        TypeFold(ArrayType<T> type, ReduceOp op) {
            this.type = type;
            this.op = op;
        }

        @Override
        public void add(int rank, ByteBuffer contribution) {
            T value = type.decode(contribution);
            acc = started ? type.reduce(acc, value, op) : value;
            started = true;
        }

        @Override
        public byte[] result() {
            if (!started) {
                throw new IllegalStateException("no contribution was added");
            }
            return type.toBytes(acc);
        }
    }
}
