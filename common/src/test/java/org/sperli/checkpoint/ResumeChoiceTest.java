package org.sperli.checkpoint;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.checkpoint.ResumeChoice.Candidate;

class ResumeChoiceTest {
    private static final byte[] A = {1};
    private static final byte[] B = {2};

    private static Candidate refused(long epoch, int holder, ErrorCode code) {
        return Candidate.refused(epoch, holder, new SperliException(code, "test"));
    }

    @Test
    void noCommitAnywhereIsAFreshStart() {
        assertInstanceOf(ResumeChoice.FreshStart.class, ResumeChoice.choose(List.of()));
    }

    @Test
    void theHighestVerifiedEpochWinsWhateverItsHolder() {
        ResumeChoice.ResumeEpoch chosen = assertInstanceOf(ResumeChoice.ResumeEpoch.class, ResumeChoice.choose(
                List.of(Candidate.verified(3, 0, A), Candidate.verified(4, 2, B), refused(5, 1, ErrorCode.H1621))));

        assertEquals(4, chosen.epoch());
        assertEquals(2, chosen.holder());
        assertArrayEquals(B, chosen.commit());
    }

    @Test
    void aRefusedNewestEpochFallsBackToAnOlderVerifiedOne() {
        ResumeChoice.ResumeEpoch chosen = assertInstanceOf(ResumeChoice.ResumeEpoch.class, ResumeChoice.choose(
                List.of(refused(7, 0, ErrorCode.H1621), Candidate.verified(6, 1, A))));

        assertEquals(6, chosen.epoch());
    }

    @Test
    void amongEqualEpochsTheLowestHolderIsTaken() {
        ResumeChoice.ResumeEpoch chosen = assertInstanceOf(ResumeChoice.ResumeEpoch.class, ResumeChoice.choose(
                List.of(Candidate.verified(2, 3, B), Candidate.verified(2, 1, A))));

        assertEquals(1, chosen.holder());
    }

    @Test
    void withNoneVerifiedTheNewestFailureGivesTheCode() {
        ResumeChoice.Refused refused = assertInstanceOf(ResumeChoice.Refused.class, ResumeChoice.choose(
                List.of(refused(2, 0, ErrorCode.H1621), refused(3, 2, ErrorCode.H1623), refused(1, 1,
                        ErrorCode.H1620))));

        assertEquals(ErrorCode.H1623, refused.code());
        assertEquals(3, refused.epoch());
        assertEquals(2, refused.holder());
    }
}
