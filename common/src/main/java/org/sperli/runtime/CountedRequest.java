package org.sperli.runtime;

import org.sperli.Request;

/**
 * A send or receive that, made by isend or irecv, counts as open until its completion was seen, so that a checkpoint
 * can refuse to start while one is (H1624).
 */
abstract class CountedRequest<T> implements Request<T> {
    private OpenRequests open;

    /** Makes this an isend or irecv, counted in {@code requests} until await returned or test gave true. */
    final synchronized void countIn(OpenRequests requests) {
        this.open = requests;
        requests.opened();
    }

    /** Its completion was seen: it no longer counts as open. */
    final synchronized void seen() {
        if (open != null) {
            open.closed();
            open = null;
        }
    }
}
