package org.sperli.control;

import java.io.IOException;

/**
 * A control stream that cannot be read on: a cut frame, a length over the limit, an unknown type or a body that does
 * not match its layout. The message names what was wrong, in one line, and never quotes a description.
 */
public final class ControlStreamException extends IOException {
    private static final long serialVersionUID = 1L;

    public ControlStreamException(String message) {
        super(message);
    }
}
