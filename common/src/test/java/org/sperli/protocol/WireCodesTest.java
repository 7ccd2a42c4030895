package org.sperli.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.function.IntFunction;
import java.util.function.ToIntFunction;
import org.junit.jupiter.api.Test;
import org.sperli.ElementType;
import org.sperli.ErrorCode;
import org.sperli.ReduceOp;
import org.sperli.protocol.frame.FrameType;
import org.sperli.protocol.payload.Abort;

/**
 * The enums whose wire code is their position: these tables, copied from the protocol's tables, fail a reordering
 * that the enums themselves would not notice.
 */
class WireCodesTest {
    @Test
    void frameTypesHaveTheCodesOfTablesSection2() {
        assertCodes(List.of("HELLO", "DATA", "COLLECTIVE", "HEARTBEAT", "ABORT", "CKPT_BEGIN", "CKPT_DATA", "CKPT_ACK",
                "CKPT_COMMIT", "RESUME", "BYE"), 1, FrameType.values(), FrameType::code, FrameType::ofCode);
    }

    @Test
    void abortReasonsHaveTheValuesOfTablesSection2() {
        assertCodes(List.of("PEER_LOST", "REFUSED", "COLLECTIVE_MISMATCH", "ROOT_DATA_REFUSED", "CHECKPOINT_FAILED",
                "RESUME_FAILED", "PROGRAM_FAILED", "OPERATOR_STOP"), 1, Abort.Reason.values(), Abort.Reason::code,
                Abort.Reason::ofCode);
    }

    @Test
    void elementTypesHaveTheCodesOfTablesSection5() {
        assertCodes(List.of("BYTES", "I32", "U32", "I64", "U64", "F32", "F64"), 0, ElementType.values(),
                ElementType::code, ElementType::ofCode);
    }

    @Test
    void reduceOpsHaveTheCodesOfTablesSection5() {
        assertCodes(List.of("SUM", "PROD", "MIN", "MAX", "LAND", "LOR", "LXOR", "BAND", "BOR", "BXOR"), 1,
                ReduceOp.values(), ReduceOp::code, ReduceOp::ofCode);
    }

    @Test
    void errorCodesCarryTheNumberOfTheirName() {
        for (ErrorCode code : ErrorCode.values()) {
            assertEquals(code.name(), "H" + code.number());
            assertEquals(code, ErrorCode.ofNumber(code.number()));
        }
        assertEquals(1610, ErrorCode.H1610.number());
        assertNull(ErrorCode.ofNumber(1609));
    }

    private static <E extends Enum<E>> void assertCodes(List<String> table, int first, E[] values,
                                                       ToIntFunction<E> code, IntFunction<E> ofCode) {
        assertEquals(table.size(), values.length);
        for (int i = 0; i < table.size(); i++) {
            E e = ofCode.apply(first + i);
            assertEquals(table.get(i), e.name());
            assertEquals(first + i, code.applyAsInt(e));
        }
        assertNull(ofCode.apply(first - 1));
        assertNull(ofCode.apply(first + table.size()));
    }
}
