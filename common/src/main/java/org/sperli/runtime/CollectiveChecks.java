package org.sperli.runtime;

import java.util.List;
import org.sperli.ElementType;
import org.sperli.ErrorCode;
import org.sperli.ReduceOp;
import org.sperli.SperliException;
import org.sperli.collective.Combine;
import org.sperli.protocol.Limits;

/**
 * The argument checks of the collectives. The throwing ones are checks every rank makes alone before anything is
 * sent: they throw H1618 and the job goes on. The bcast data and the scatter blocks exist only at the root, so a
 * fault there ({@link #dataFault}, {@link #blocksFault}) is returned for the caller to end the job with (ABORT
 * reason 4).
 */
final class CollectiveChecks {
    /** The code a null element type is refused as: above 6. */
    static final int NULL_TYPE_CODE = 255;
    /** The code a null reduce operation is refused as: 0. */
    static final int NULL_OP_CODE = 0;

    private CollectiveChecks() {
    }

    /** A root every rank can judge alone: 0..size-1. */
    static void root(int root, int size) {
        if (root < 0 || root >= size) {
            throw refused("root=" + root + ", allowed 0.." + (size - 1));
        }
    }

    /** Data of gather, which every rank holds: present, at most {@link Limits#MAX_COLLECTIVE_DATA} bytes. */
    static void data(byte[] data) {
        String fault = dataFault(data);
        if (fault != null) {
            throw refused(fault);
        }
    }

    /** What is wrong with collective data (absent, over {@link Limits#MAX_COLLECTIVE_DATA} bytes), or null. */
    static String dataFault(byte[] data) {
        if (data == null) {
            return "data=null";
        }
        if (data.length > Limits.MAX_COLLECTIVE_DATA) {
            return "data length=" + data.length + ", maximum " + Limits.MAX_COLLECTIVE_DATA;
        }
        return null;
    }

    /** Operation 1..10, type 0..6, the two allowed together, whole elements, at most the limit (Combine's order). */
    static void reduce(CollectiveCall call, byte[] data) {
        if (data == null) {
            throw refused("data=null");
        }
        Combine.check(call.elementType(), call.reduceOp(), data.length);
    }

    /** What is wrong with the root's scatter blocks, or null: one per rank, none null or over the limit. */
    static String blocksFault(List<byte[]> blocks, int size) {
        if (blocks == null) {
            return "blocks=null at the root";
        }
        if (blocks.size() != size) {
            return "blocks=" + blocks.size() + ", expected one per rank: " + size;
        }
        for (int r = 0; r < size; r++) {
            byte[] block = blocks.get(r);
            if (block == null) {
                return "block " + r + "=null";
            }
            if (block.length > Limits.MAX_COLLECTIVE_DATA) {
                return "block " + r + " length=" + block.length + ", maximum " + Limits.MAX_COLLECTIVE_DATA;
            }
        }
        return null;
    }

    static int code(ElementType type) {
        return type == null ? NULL_TYPE_CODE : type.code();
    }

    static int code(ReduceOp op) {
        return op == null ? NULL_OP_CODE : op.code();
    }

    private static SperliException refused(String reason) {
        return new SperliException(ErrorCode.H1618, reason);
    }
}
