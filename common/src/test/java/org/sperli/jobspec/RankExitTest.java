package org.sperli.jobspec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sperli.ErrorCode;
import org.sperli.SperliException;

class RankExitTest {
    @Test
    void statusesAreThoseOfTablesSection10() {
        assertEquals(0, RankExit.COMPLETED);
        assertEquals(2, RankExit.REFUSED);
        assertEquals(3, RankExit.PROGRAM_FAILED);
        assertEquals(4, RankExit.ABORTED_BY_PEER);
        assertEquals(5, RankExit.PEER_LOST);
        assertEquals(6, RankExit.PROTOCOL_REFUSED);
        assertEquals(7, RankExit.CHECKPOINT_FAILED);
        assertEquals(8, RankExit.OPERATOR_STOP);
    }

    @Test
    void everyCodeMapsToTheStatusOfItsRow() {
        Map<ErrorCode, Integer> expected = new EnumMap<>(ErrorCode.class);
        expected.put(ErrorCode.H1610, 6);
        expected.put(ErrorCode.H1611, 6);
        expected.put(ErrorCode.H1612, 4);
        expected.put(ErrorCode.H1613, 5);
        expected.put(ErrorCode.H1614, 6);
        expected.put(ErrorCode.H1615, 2);
        expected.put(ErrorCode.H1616, 2);
        expected.put(ErrorCode.H1617, 7);
        expected.put(ErrorCode.H1618, 3);
        for (int n = 1619; n <= 1624; n++) {
            expected.put(ErrorCode.ofNumber(n), 7);
        }
        assertEquals(ErrorCode.values().length, expected.size(), "a code without a row");
        for (ErrorCode code : ErrorCode.values()) {
            assertEquals(expected.get(code), RankExit.forCode(code), code.name());
        }
    }

    @Test
    void anyThrowableOfTheProgramIsItsFailure() {
        assertEquals(3, RankExit.forProgramThrowable(new IllegalStateException("boom")));
        assertEquals(3, RankExit.forProgramThrowable(new StackOverflowError()));
    }

    @Test
    void uncaughtRefusedCallIsTheProgramsFailure() {
        assertEquals(3, RankExit.forProgramThrowable(new SperliException(ErrorCode.H1618, "tag=-1")));
    }

    @Test
    void peerThatLeftDuringAWaitStaysPeerLost() {
        assertEquals(5, RankExit.forProgramThrowable(new SperliException(ErrorCode.H1613, "rank 2 left")));
    }

    @Test
    void descriptionCodesThrownByTheProgramAreNoRefusedStart() {
        assertEquals(3, RankExit.forProgramThrowable(new SperliException(ErrorCode.H1616, "x")));
        assertEquals(3, RankExit.forProgramThrowable(new SperliException(ErrorCode.H1615, "x")));
    }
}
