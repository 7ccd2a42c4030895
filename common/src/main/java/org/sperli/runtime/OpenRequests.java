package org.sperli.runtime;

import java.util.concurrent.atomic.AtomicInteger;

/** The count of isend and irecv requests whose completion the program has not seen yet; a checkpoint needs none. */
final class OpenRequests {
    private final AtomicInteger open = new AtomicInteger();

    void opened() {
        open.incrementAndGet();
    }

    void closed() {
        open.decrementAndGet();
    }

    int count() {
        return open.get();
    }
}
