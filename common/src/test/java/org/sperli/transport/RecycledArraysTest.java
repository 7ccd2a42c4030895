package org.sperli.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

/** Arrays given back serve later frames of their length only, and what is kept stays within one largest payload. */
class RecycledArraysTest {
    @Test
    void anArrayGivenBackServesTheNextTakeOfItsLengthOnly() {
        RecycledArrays arrays = new RecycledArrays();
        byte[] given = new byte[100_000];
        arrays.give(given);

        assertNotSame(given, arrays.take(99_999), "another length gets a new array");
        assertSame(given, arrays.take(100_000));
        assertNotSame(given, arrays.take(100_000), "taken once, it is no longer kept");
        assertEquals(0, arrays.keptBytes());
    }

    @Test
    void whatIsKeptNeverExceedsOneLargestPayloadTheOldestGoingFirst() {
        RecycledArrays arrays = new RecycledArrays();
        int quarter = (int) (RecycledArrays.MAX_KEPT_BYTES / 4);
        byte[][] given = new byte[5][];
        for (int i = 0; i < given.length; i++) {
            given[i] = new byte[quarter];
            arrays.give(given[i]);
        }

        assertEquals(RecycledArrays.MAX_KEPT_BYTES, arrays.keptBytes());
        // The newest four are kept, newest first; the first one given was dropped.
        for (int i = given.length - 1; i >= 1; i--) {
            assertSame(given[i], arrays.take(quarter));
        }
        assertNotSame(given[0], arrays.take(quarter));
    }

    @Test
    void anEmptyOrOversizedArrayIsNotKept() {
        RecycledArrays arrays = new RecycledArrays();
        arrays.give(new byte[0]);
        arrays.give(new byte[(int) RecycledArrays.MAX_KEPT_BYTES + 1]);

        assertEquals(0, arrays.keptBytes());
    }
}
