package org.sperli.jvm;

/**
 * The lines of a JVM's class list ({@code -XX:DumpLoadedClassList}) that go into a class-data archive made with
 * {@code -Xshare:dump}.
 */
public final class ClassLists {
    private ClassLists() {
    }

    /**
     * The class a class-list line names, or null for a line to leave out: comments, lambda and lambda-form lines
     * ({@code @...}: dumping them crashes some JDK 17 builds, Debian's 17.0.15 among them, and they are a small part
     * of the gain), and classes of other class loaders ({@code ... source: JAR}: the job's own classes). Newer JDKs
     * number every line ({@code name id: N}); the numbers of two JVMs' lists collide, so only names are kept.
     */
    public static String className(String line) {
        String text = line.strip();
        if (text.isEmpty() || text.startsWith("#") || text.startsWith("@") || text.contains(" source: ")) {
            return null;
        }
        int space = text.indexOf(' ');
        return space < 0 ? text : text.substring(0, space);
    }
}
