package org.sperli.launcher.ssh;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class JavaVersionTest {
    @Test
    void theFeatureReleaseIsReadFromBothVersionSchemes() {
        assertEquals(OptionalInt.of(17), JavaVersion.feature("openjdk version \"17.0.9\" 2023-10-17"));
        assertEquals(OptionalInt.of(25), JavaVersion.feature("openjdk version \"25\" 2025-09-16 LTS"));
        assertEquals(OptionalInt.of(26), JavaVersion.feature("openjdk version \"26-ea\" 2026-03-17"));
        assertEquals(OptionalInt.of(8), JavaVersion.feature("java version \"1.8.0_392\""));
        assertEquals(OptionalInt.of(11), JavaVersion.feature("java version \"11.0.2\" 2019-01-15 LTS"));
    }

    @Test
    void aLineThatNamesNoVersionHasNone() {
        assertEquals(OptionalInt.empty(), JavaVersion.feature("sh: 1: java: not found"));
        assertEquals(OptionalInt.empty(), JavaVersion.feature(""));
        assertEquals(OptionalInt.empty(), JavaVersion.feature(null));
    }
}
