package org.sperli.rankd;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A rankd's process end in a test: records {@code exit N} and {@code halt N} in order, and ends nothing. */
final class RecordedEnd implements ProcessEnd {
    private final List<String> calls = new CopyOnWriteArrayList<>();

    @Override
    public void exit(int status) {
        calls.add("exit " + status);
    }

    @Override
    public void halt(int status) {
        calls.add("halt " + status);
    }

    /** What was asked for so far, in order. */
    List<String> calls() {
        return List.copyOf(calls);
    }
}
