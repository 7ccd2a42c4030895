package org.sperli;

import java.util.HashMap;
import java.util.Map;

/**
 * The H codes of SPERLI v1 (tables section 8). Every refusal anywhere in SPERLI carries exactly one of these.
 *
 * <p>The number is what goes on the wire (the {@code code} field of ABORT is the number without the H) and what a
 * rank prints at the start of its last stderr line.
 */
public enum ErrorCode {
    /** Frame refused by a header or payload check. */
    H1610("frame refused"),
    /** TLS handshake or peer identity refused (version, certificate, subject, host). */
    H1611("TLS handshake or peer identity refused"),
    /** The job was aborted by another rank. */
    H1612("job aborted by another rank"),
    /** A peer was lost or could not be reached within 30 s. */
    H1613("peer lost or unreachable"),
    /** HELLO or join token refused. */
    H1614("HELLO or join token refused"),
    /** Host refused by the refused-host policy. */
    H1615("host refused"),
    /** Job description refused. */
    H1616("job description refused"),
    /** Collective frame does not answer the call, or is cut. */
    H1617("collective frame does not answer the call"),
    /** Invalid argument: a call refused before anything is sent. */
    H1618("invalid argument"),
    /** Checkpoint file is not the one expected. */
    H1619("checkpoint file is not the one expected"),
    /** SHA-256 does not match. */
    H1620("SHA-256 does not match"),
    /** COMMIT malformed or its signature does not hold. */
    H1621("COMMIT malformed or signature does not hold"),
    /** No epoch can be resumed. */
    H1622("no epoch can be resumed"),
    /** Checkpoint of another size. */
    H1623("checkpoint of another size"),
    /** Checkpoint with a send or receive still open. */
    H1624("checkpoint with a send or receive still open");

    private static final Map<Integer, ErrorCode> BY_NUMBER = new HashMap<>();

    static {
        for (ErrorCode code : values()) {
            BY_NUMBER.put(code.number, code);
        }
    }

    private final int number;
    private final String meaning;

    /** The number is read from the name, so the two cannot disagree and no two codes share a number. */
    ErrorCode(String meaning) {
        this.number = Integer.parseInt(name().substring(1));
        this.meaning = meaning;
    }

    /** The number without the H, as carried in ABORT. */
    public int number() {
        return number;
    }

    /** A short phrase for people. */
    public String meaning() {
        return meaning;
    }

    /** The code with this number, or {@code null} when the number is not a v1 code (ABORT decodes leniently). */
    public static ErrorCode ofNumber(int number) {
        return BY_NUMBER.get(number);
    }
}
