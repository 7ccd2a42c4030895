package org.sperli.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** Which lines of a JVM's class list go into a class-data archive, and as what. */
class ClassListsTest {
    @Test
    void aJdk17LineIsTheClassName() {
        assertEquals("io/netty/channel/Channel", ClassLists.className("io/netty/channel/Channel"));
    }

    @Test
    void aJdk25LineLosesItsNumberWhichTwoListsWouldBothUse() {
        assertEquals("java/lang/Object", ClassLists.className("java/lang/Object id: 0"));
    }

    @Test
    void commentsLambdasAndTheJobsOwnClassesAreLeftOut() {
        assertNull(ClassLists.className("# NOTE: Do not modify this file."));
        assertNull(ClassLists.className("@lambda-proxy java/lang/Thread run ()V"));
        assertNull(ClassLists.className(
                "org/sperli/examples/hello/HelloJob id: 1992 super: 0 interfaces: 1991 source: /x/hello.jar"));
        assertNull(ClassLists.className("   "));
    }

    @Test
    void withLambdasALambdaOrLambdaFormLineIsKeptAsItStandsAndOtherAtLinesAreNot() {
        String proxy = "@lambda-proxy java/lang/Thread run ()V";
        String form = "@lambda-form-invoker [LF_RESOLVE] java.lang.invoke.DirectMethodHandle$Holder invokeStatic LL_L";

        assertEquals(proxy, ClassLists.entry("  " + proxy + " ", true));
        assertEquals(form, ClassLists.entry(form, true));
        assertNull(ClassLists.entry(proxy, false));
        assertNull(ClassLists.entry("@cp sun/util/Foo 1 2 8", true));
        assertEquals("java/lang/Object", ClassLists.entry("java/lang/Object id: 0", true));
    }
}
