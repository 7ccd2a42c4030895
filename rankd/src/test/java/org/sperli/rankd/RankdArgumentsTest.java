package org.sperli.rankd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sperli.runtime.CollectiveShape;

class RankdArgumentsTest {
    private static final String SHA = "ab".repeat(32);

    @Test
    void optionsComeBeforeTheJarAndEverythingAfterItIsTheJobs() {
        RankdArguments a = RankdArguments.parse(new String[] {"--deny-hosts", "deny.txt", "--jar-sha256=" + SHA,
            "job.jar", "--deny-hosts", "x", "-v"});
        assertEquals(Path.of("deny.txt"), a.denyFileOrNull());
        assertEquals(SHA, a.jarSha256OrNull());
        assertEquals(Path.of("job.jar"), a.jar());
        assertEquals(List.of("--deny-hosts", "x", "-v"), a.jobArgs());
    }

    @Test
    void jarAloneHasNoOptions() {
        RankdArguments a = RankdArguments.parse(new String[] {"job.jar"});
        assertNull(a.denyFileOrNull());
        assertNull(a.jarSha256OrNull());
        assertEquals(List.of(), a.jobArgs());
    }

    @Test
    void doubleDashEndsTheOptions() {
        assertEquals(Path.of("-odd.jar"), RankdArguments.parse(new String[] {"--", "-odd.jar"}).jar());
    }

    @Test
    void upperCaseShaIsLowered() {
        assertEquals(SHA, RankdArguments.parse(new String[] {"--jar-sha256", SHA.toUpperCase(), "j.jar"})
                .jarSha256OrNull());
    }

    @Test
    void refusesWhatItCannotUse() {
        assertThrows(IllegalArgumentException.class, () -> RankdArguments.parse(new String[] {}));
        assertThrows(IllegalArgumentException.class, () -> RankdArguments.parse(new String[] {"--deny-hosts"}));
        assertThrows(IllegalArgumentException.class, () -> RankdArguments.parse(new String[] {"--nope", "j.jar"}));
        assertThrows(IllegalArgumentException.class,
                () -> RankdArguments.parse(new String[] {"--jar-sha256", "abc", "j.jar"}));
        assertThrows(IllegalArgumentException.class,
                () -> RankdArguments.parse(new String[] {"--jar-sha256", "zz".repeat(32), "j.jar"}));
    }

    /** {@code --collectives star} makes the rank not announce feature bit 1; without the option it offers the mesh. */
    @Test
    void collectivesNamesTheShapeTheRankOffersAndRefusesAnyOtherWord() {
        assertEquals(CollectiveShape.STAR,
                RankdArguments.parse(new String[] {"--collectives", "star", "j.jar"}).collectivesOrNull());
        assertEquals(CollectiveShape.MESH,
                RankdArguments.parse(new String[] {"--collectives=mesh", "j.jar"}).collectivesOrNull());
        assertNull(RankdArguments.parse(new String[] {"j.jar"}).collectivesOrNull());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RankdArguments.parse(new String[] {"--collectives", "tree", "j.jar"}));
        assertEquals("collectives=tree, expected star or mesh", e.getMessage());
    }

    @Test
    void helpNeedsNoJar() {
        assertTrue(RankdArguments.parse(new String[] {"--help"}).help());
    }
}
