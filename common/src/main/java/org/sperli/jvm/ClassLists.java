package org.sperli.jvm;

/**
 * The lines of a JVM's class list ({@code -XX:DumpLoadedClassList}) that go into a class-data archive made with
 * {@code -Xshare:dump}.
 */
public final class ClassLists {
    private static final String LAMBDA_PROXY = "@lambda-proxy ";
    private static final String LAMBDA_FORM_INVOKER = "@lambda-form-invoker ";

    private ClassLists() {
    }

    /**
     * The class a class-list line names, or null for a line to leave out: comments, {@code @...} lines (see
     * {@link #entry}), and classes of other class loaders ({@code ... source: JAR}: the job's own classes). Newer
     * JDKs number every line ({@code name id: N}); the numbers of two JVMs' lists collide, so only names are kept.
     */
    public static String className(String line) {
        String text = line.strip();
        if (text.isEmpty() || text.startsWith("#") || text.startsWith("@") || text.contains(" source: ")) {
            return null;
        }
        int space = text.indexOf(' ');
        return space < 0 ? text : text.substring(0, space);
    }

    /**
     * What the archive's list keeps of {@code line}: its {@link #className}, or with {@code lambdas} also a lambda's
     * class ({@code @lambda-proxy}) or a lambda form ({@code @lambda-form-invoker}) as the line gives it, which the
     * dump then archives too; null for a line to leave out. Without them a JVM spins each lambda's class and many
     * method-handle forms at its start, hundreds of classes in a rank on JDK 17, which the archive then saves (see
     * docs/performance.md, section 3.2). The lines name classes, not the numbers of one JVM's list, so lists can be
     * merged. Other {@code @} lines ({@code @cp} of JDK 25) are left out.
     */
    public static String entry(String line, boolean lambdas) {
        String text = line.strip();
        if (text.startsWith(LAMBDA_PROXY) || text.startsWith(LAMBDA_FORM_INVOKER)) {
            return lambdas ? text : null;
        }
        return className(text);
    }
}
