package org.sperli.protocol.frame;

import org.sperli.ErrorCode;
import org.sperli.SperliException;

/** What a receiver does with a frame, decided from its 52 header bytes before any payload byte is read. */
public sealed interface HeaderVerdict {

    /** Read {@code header.length()} payload bytes and hand the frame on. */
    record Accept(FrameHeader header) implements HeaderVerdict {
    }

    /** A frame of an older incarnation: read and discard {@code discardBytes}, nothing else happens. */
    record Drop(FrameHeader header, long discardBytes) implements HeaderVerdict {
    }

    /** Refuse the frame: close the connection and abort the job with this code. */
    record Refuse(ErrorCode code, String reason) implements HeaderVerdict {
        /** The refusal as the exception a caller sees. */
        public SperliException toException() {
            return new SperliException(code, reason);
        }
    }
}
