package org.sperli.collective;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The api module's build step that makes F32Kernels/F64Kernels and Int32Kernels/Int64Kernels from one template each
 * ({@code api/src/build/ExpandTemplates.java}), run here as the build runs it: this JDK's java in source-file mode.
 * The api module has no tests of its own (it has no dependencies, not even JUnit), so its build step is tested here.
 */
class ExpandTemplatesTest {
    private static final Path SCRIPT = Path.of("..", "api", "src", "build", "ExpandTemplates.java");

    @TempDir
    Path dir;

    @Test
    void eachVariantLineMakesOneClassWithItsValues() throws Exception {
        Path out = dir.resolve("out");
        template("Twice.java", "//$ IntTwice t=int\n//$ LongTwice t=long\n"
                + "package p;\nfinal class $Class$ { static $t$ twice($t$ x) { return 2 * x; } }\n");
        Files.createDirectories(out.resolve("p"));
        Files.writeString(out.resolve("p/Stale.java"), "package p; class Stale {}");

        Result r = expand(out);

        assertEquals(0, r.status, r.err);
        String ints = Files.readString(out.resolve("p/IntTwice.java"));
        assertTrue(ints.contains("final class IntTwice { static int twice(int x)"), ints);
        assertFalse(ints.contains("//$"), ints);
        assertTrue(Files.readString(out.resolve("p/LongTwice.java")).contains("static long twice(long x)"));
        assertFalse(Files.exists(out.resolve("p/Stale.java")), "a file no template makes any more stays");
    }

    @Test
    void aTokenWithoutAValueStopsTheBuildNamingTheTemplateAndTheToken() throws Exception {
        template("Bad.java", "//$ Bad t=int\npackage p;\nfinal class $Class$ { $t$ x; $width$ y; }\n");

        Result r = expand(dir.resolve("out"));

        assertNotEquals(0, r.status);
        assertTrue(r.err.contains("Bad.java") && r.err.contains("$width$"), r.err);
    }

    @Test
    void aValueThatNoTokenUsesStopsTheBuild() throws Exception {
        template("Unused.java", "//$ Unused t=int spare=1\npackage p;\nfinal class $Class$ { $t$ x; }\n");

        Result r = expand(dir.resolve("out"));

        assertNotEquals(0, r.status);
        assertTrue(r.err.contains("Unused.java") && r.err.contains("spare"), r.err);
    }

    @Test
    void aTemplateWithoutVariantsStopsTheBuild() throws Exception {
        template("None.java", "package p;\nfinal class None { }\n");

        Result r = expand(dir.resolve("out"));

        assertNotEquals(0, r.status);
        assertTrue(r.err.contains("None.java") && r.err.contains("no variant line"), r.err);
    }

    private void template(String name, String text) throws IOException {
        Path p = Files.createDirectories(dir.resolve("templates/p")).resolve(name);
        Files.writeString(p, text, StandardCharsets.UTF_8);
    }

    private record Result(int status, String err) {
    }

    private Result expand(Path out) throws Exception {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                SCRIPT.toString(), dir.resolve("templates").toString(), out.toString())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "ExpandTemplates did not end within 60 s");
        return new Result(p.exitValue(), err);
    }
}
