package org.sperli;

/**
 * The one exception type of SPERLI: every refusal and every failure a program sees carries its H code.
 *
 * <p>The message starts with the code, then names what was wrong: {@code H1610 frame refused: type=12, allowed 1..11}.
 * It is unchecked so that the blocking job API stays readable; the code is always there to branch on.
 */
public class SperliException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final ErrorCode code;
    private final String reason;

    public SperliException(ErrorCode code, String reason) {
        super(code.name() + " " + code.meaning() + ": " + reason);
        this.code = code;
        this.reason = reason;
    }

    public SperliException(ErrorCode code, String reason, Throwable cause) {
        super(code.name() + " " + code.meaning() + ": " + reason, cause);
        this.code = code;
        this.reason = reason;
    }

    /** The H code. */
    public ErrorCode code() {
        return code;
    }

    /** What was wrong, without the code prefix. */
    public String reason() {
        return reason;
    }
}
