package org.sperli.launcher.ssh;

import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The feature release of a JVM, read from the first line of its {@code java -version} output: {@code openjdk version
 * "17.0.9" 2023-10-17} is 17, {@code java version "1.8.0_392"} is 8 (the old scheme's second number), {@code openjdk
 * version "25" 2025-09-16} is 25, {@code openjdk version "26-ea"} is 26.
 */
final class JavaVersion {
    /** The oldest Java a rank runs on: the project's {@code --release}. */
    static final int MINIMUM = 17;

    private static final Pattern QUOTED = Pattern.compile("version \"(\\d+)(?:\\.(\\d+))?[^\"]*\"");

    private JavaVersion() {
    }

    /** The feature release the line names, or empty when it names none (not a {@code java -version} line). */
    static OptionalInt feature(String firstLine) {
        Matcher m = QUOTED.matcher(firstLine == null ? "" : firstLine);
        if (!m.find()) {
            return OptionalInt.empty();
        }
        try {
            int first = Integer.parseInt(m.group(1));
            if (first == 1 && m.group(2) != null) {
                return OptionalInt.of(Integer.parseInt(m.group(2)));
            }
            return OptionalInt.of(first);
        } catch (NumberFormatException e) {
            return OptionalInt.empty();
        }
    }
}
