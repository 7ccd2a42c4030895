package org.sperli.launcher.report;

/**
 * Where the {@link Console} also sends every rank line it shows ({@code --output-dir}: {@link RankOutputFiles}).
 * Called under the console's lock, in the order the lines are shown; an implementation never calls the console back
 * from another thread while holding its own lock.
 */
public interface RankLineCopy {
    /** No copy. */
    RankLineCopy NONE = new RankLineCopy() {
        @Override
        public void opened(long incarnation, int rank, boolean stderr) {
        }

        @Override
        public void line(long incarnation, int rank, boolean stderr, String line) {
        }
    };

    /** A stream of a rank began (its file, if any, exists from now on, even if the rank never writes to it). */
    void opened(long incarnation, int rank, boolean stderr);

    /** One line as shown, timestamp included, without the {@code [rank N]} prefix and the line end. */
    void line(long incarnation, int rank, boolean stderr, String line);
}
