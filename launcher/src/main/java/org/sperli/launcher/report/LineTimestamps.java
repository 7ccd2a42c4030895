package org.sperli.launcher.report;

import java.time.InstantSource;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Objects;

/**
 * The timestamps of {@code sperli run --timestamp-output}: ISO-8601 in UTC with milliseconds and a fixed width,
 * {@code 2026-12-01T09:15:02.047Z}, taken from an injected clock when the launcher has read a whole line. UTC so that
 * lines of ranks on hosts in other time zones, and of several runs, sort by their text; a fixed width (unlike
 * {@link DateTimeFormatter#ISO_INSTANT}, which drops trailing zeros) so that columns line up.
 */
public final class LineTimestamps {
    /** The format, for tests and documentation. */
    public static final DateTimeFormatter FORMAT =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    private final InstantSource clock;

    public LineTimestamps(InstantSource clock) {
        this.clock = Objects.requireNonNull(clock);
    }

    /** The timestamp of now. */
    public String now() {
        return FORMAT.format(clock.instant());
    }
}
