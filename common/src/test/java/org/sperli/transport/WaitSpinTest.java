package org.sperli.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The rule of {@link WaitSpin}: a waiting thread polls only while every rank on the machine has a core. */
class WaitSpinTest {
    @Test
    void ranksThatEachHaveACorePollBeforeTheySleep() {
        assertEquals(WaitSpin.SPIN_NANOS, WaitSpin.nanosFor(1, 1));
        assertEquals(WaitSpin.SPIN_NANOS, WaitSpin.nanosFor(2, 2));
        assertEquals(WaitSpin.SPIN_NANOS, WaitSpin.nanosFor(8, 64));
    }

    @Test
    void ranksThatOutnumberTheCoresNeverPoll() {
        assertEquals(0, WaitSpin.nanosFor(3, 2));
        assertEquals(0, WaitSpin.nanosFor(64, 2));
    }
}
