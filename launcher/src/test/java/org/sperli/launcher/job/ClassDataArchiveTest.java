package org.sperli.launcher.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which lines of the JVMs' class lists go into the merged list the archive is dumped from. */
class ClassDataArchiveTest {
    @Test
    void aJdk17LineIsTheClassName() {
        assertEquals("io/netty/channel/Channel", ClassDataArchive.className("io/netty/channel/Channel"));
    }

    @Test
    void aJdk25LineLosesItsNumberWhichTwoListsWouldBothUse() {
        assertEquals("java/lang/Object", ClassDataArchive.className("java/lang/Object id: 0"));
    }

    @Test
    void commentsLambdasAndTheJobsOwnClassesAreLeftOut() {
        assertNull(ClassDataArchive.className("# NOTE: Do not modify this file."));
        assertNull(ClassDataArchive.className("@lambda-proxy java/lang/Thread run ()V"));
        assertNull(ClassDataArchive.className(
                "org/sperli/examples/hello/HelloJob id: 1992 super: 0 interfaces: 1991 source: /x/hello.jar"));
        assertNull(ClassDataArchive.className("   "));
    }

    /** A one-rank job makes no connection, so its class list would leave Netty and TLS out of the archive. */
    @Test
    void onlyRankOneListsItsClassesSoAOneRankJobMakesNoArchive(@TempDir Path dir) throws Exception {
        ClassDataArchive archive = new ClassDataArchive(dir.resolve("sperli-x"), dir.resolve("x.jar"), "java");
        assertEquals(List.of(), archive.rankOptions(0));
        assertEquals(List.of("-XX:DumpLoadedClassList=" + dir.resolve("sperli-x.rank.classlist")),
                archive.rankOptions(1));
        assertEquals(List.of(), archive.rankOptions(2));
        Files.writeString(dir.resolve("sperli-x.jsa"), "");
        for (int rank = 0; rank < 3; rank++) {
            assertEquals(List.of("-XX:SharedArchiveFile=" + dir.resolve("sperli-x.jsa")), archive.rankOptions(rank));
        }
        assertTrue(archive.makeIfMissing().isEmpty(), "nothing to make once the archive exists");
    }
}
