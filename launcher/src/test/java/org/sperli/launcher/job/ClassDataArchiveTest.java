package org.sperli.launcher.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

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
}
