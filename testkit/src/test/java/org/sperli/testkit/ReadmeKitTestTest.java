package org.sperli.testkit;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The README's ten-line test ("Testing a job") is {@code com.example.PiTest} of this module, line for line, so that the
 * test a job author copies from the README is one that compiles and passes here.
 */
class ReadmeKitTestTest {
    @org.junit.jupiter.api.Test
    void theReadmesTenLineTestIsThisModulesPiTest() throws IOException {
        // surefire names the module's directory; the tests' working directory is a temporary one (see pom.xml)
        Path module = Path.of(System.getProperty("basedir"));
        String readme = Files.readString(module.resolve("../README.md"), StandardCharsets.UTF_8);
        String source = Files.readString(module.resolve("src/test/java/com/example/PiTest.java"), StandardCharsets.UTF_8);
        String test = source.substring(source.indexOf("class PiTest {"));
        assertTrue(readme.contains("```java\n" + test + "```\n"), "README.md's test differs from com.example.PiTest:\n"
                + test);
    }
}
