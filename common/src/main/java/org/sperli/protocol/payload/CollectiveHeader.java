package org.sperli.protocol.payload;

import java.nio.ByteBuffer;
import org.sperli.ErrorCode;
import org.sperli.protocol.Encodable;
import org.sperli.protocol.Wire;

/**
 * The 16-byte collective header at the start of every COLLECTIVE payload (tables section 4); the data follows it.
 *
 * <pre>
 * off size field
 *   0    1 operation        1 barrier, 2 bcast, 3 reduce, 4 allreduce, 5 gather, 6 scatter
 *   1    1 element type     0 for all but reduce and allreduce
 *   2    1 reduce operation 0 for all but reduce and allreduce
 *   3    1 phase            0 toward the root, 1 from the root; 2..7 the mesh's steps (below)
 *   4    4 root             0 for barrier and allreduce
 *   8    8 sequence         the sending rank's call number, from 1 (unsigned)
 * </pre>
 *
 * <p>The phases of the mesh collectives (feature bit 1, protocol section 7.4.1), each naming one step of a schedule:
 *
 * <pre>
 * phase name               step
 *   2   TO_OWNER           a contribution's segment, to the rank that owns (folds) it
 *   3   FROM_OWNER         an owner's folded segment, to the ranks that assemble the result
 *   4   FROM_PARENT        the whole result, from the rank's parent in a binomial tree
 *   5   DISSEMINATION      a barrier round, empty
 *   6   PIECE_FROM_ROOT    the bcast root's piece for this rank
 *   7   PIECE_FROM_HOLDER  a piece of the bcast data, from the rank that received it from the root
 * </pre>
 *
 * <p>Refused with H1617: fewer than 16 bytes, an operation outside 1..6 and a phase above 7. Element type
 * and reduce operation are not judged alone: a frame answers a call, and {@link #mismatch} against that call finds
 * any difference (also H1617), while a call's own arguments were checked before anything was sent (H1618).
 */
public record CollectiveHeader(int operation, int elementType, int reduceOp, int phase, long root, long sequence)
        implements Encodable {
    public static final int BARRIER = 1;
    public static final int BCAST = 2;
    public static final int REDUCE = 3;
    public static final int ALLREDUCE = 4;
    public static final int GATHER = 5;
    public static final int SCATTER = 6;

    public static final int TOWARD_ROOT = 0;
    public static final int FROM_ROOT = 1;
    public static final int TO_OWNER = 2;
    public static final int FROM_OWNER = 3;
    public static final int FROM_PARENT = 4;
    public static final int DISSEMINATION = 5;
    public static final int PIECE_FROM_ROOT = 6;
    public static final int PIECE_FROM_HOLDER = 7;

    // Each field's offset named, from the one before, as every layout here is written: the tables look alike on
    // purpose, so that each reads against the protocol's own table line by line.
    public static final int OPERATION_OFFSET = 0;
    public static final int ELEMENT_TYPE_OFFSET = OPERATION_OFFSET + 1;
    public static final int REDUCE_OP_OFFSET = ELEMENT_TYPE_OFFSET + 1;
    public static final int PHASE_OFFSET = REDUCE_OP_OFFSET + 1;
    public static final int ROOT_OFFSET = PHASE_OFFSET + 1;
    public static final int SEQUENCE_OFFSET = ROOT_OFFSET + 4;
    /** Bytes of the header: 16. */
    public static final int LENGTH = SEQUENCE_OFFSET + 8;

    /** Decodes the first 16 bytes of the payload; the data after them is left alone, however long. */
    public static CollectiveHeader read(ByteBuffer payload) {
        ByteBuffer b = headed(payload);
        int operation = Wire.u8(b, OPERATION_OFFSET);
        int phase = Wire.u8(b, PHASE_OFFSET);
        String fault = Wire.first(operationFault(operation), phaseFault(phase));
        if (fault != null) {
            throw Wire.refuse(ErrorCode.H1617, fault);
        }
        return new CollectiveHeader(operation, Wire.u8(b, ELEMENT_TYPE_OFFSET), Wire.u8(b, REDUCE_OP_OFFSET), phase,
                Wire.u32(b, ROOT_OFFSET), b.getLong(SEQUENCE_OFFSET));
    }

    /** The data after the header: a read-only slice, never a copy. A payload under 16 bytes is H1617. */
    public static ByteBuffer data(ByteBuffer payload) {
        ByteBuffer b = headed(payload);
        return Wire.readOnlySlice(b, LENGTH, b.limit() - LENGTH);
    }

    /** {@link Wire#view} of a payload that has room for the header; a shorter one is H1617, not H1610. */
    private static ByteBuffer headed(ByteBuffer payload) {
        ByteBuffer b = Wire.view(payload);
        if (b.limit() < LENGTH) {
            throw Wire.refuse(ErrorCode.H1617, "length=" + b.limit() + ", collective header is " + LENGTH);
        }
        return b;
    }

    /**
     * The first field in which this received header differs from the {@code expected} one of the call it answers,
     * in table order, as {@code "sequence=7, expected 6"}; {@code null} when they are equal.
     */
    public String mismatch(CollectiveHeader expected) {
        if (operation != expected.operation) {
            return "operation=" + operation + ", expected " + expected.operation;
        }
        if (elementType != expected.elementType) {
            return "element type=" + elementType + ", expected " + expected.elementType;
        }
        if (reduceOp != expected.reduceOp) {
            return "reduce operation=" + reduceOp + ", expected " + expected.reduceOp;
        }
        if (phase != expected.phase) {
            return "phase=" + phase + ", expected " + expected.phase;
        }
        if (root != expected.root) {
            return "root=" + root + ", expected " + expected.root;
        }
        if (sequence != expected.sequence) {
            return "sequence=" + Long.toUnsignedString(sequence) + ", expected "
                    + Long.toUnsignedString(expected.sequence);
        }
        return null;
    }

    // Checked as a receiver checks, then written at the table's offsets, as CkptBegin and every fixed payload do over
    // their own fields; what they share (the refusal, the claimed view) is Wire's already.

    /** Bytes of the header alone: 16. */
    @Override
    public int encodedLength() {
        Wire.requireEncodable(Wire.first(operationFault(operation), Wire.u8Fault("element type", elementType),
                Wire.u8Fault("reduce operation", reduceOp), phaseFault(phase), Wire.u32Fault("root", root)));
        return LENGTH;
    }

    /** Writes the header alone; the caller writes the data after it. */
    @Override
    public void write(ByteBuffer out) {
        ByteBuffer b = Wire.claim(out, encodedLength());
        b.put(OPERATION_OFFSET, (byte) operation);
        b.put(ELEMENT_TYPE_OFFSET, (byte) elementType);
        b.put(REDUCE_OP_OFFSET, (byte) reduceOp);
        b.put(PHASE_OFFSET, (byte) phase);
        b.putInt(ROOT_OFFSET, (int) root);
        b.putLong(SEQUENCE_OFFSET, sequence);
    }

    private static String operationFault(int operation) {
        return operation < BARRIER || operation > SCATTER ? "operation=" + operation + ", expected 1..6" : null;
    }

    private static String phaseFault(int phase) {
        // A v1 receiver knows the phases 0 and 1 only; a mesh phase in a star job differs from the call (H1617 too).
        return phase < TOWARD_ROOT || phase > PIECE_FROM_HOLDER ? "phase=" + phase + ", expected 0..7" : null;
    }
}
