package org.sperli.protocol;

/** Fixed limits of SPERLI v1. Every length read from a wire, a file or stdin is checked against one of these first. */
public final class Limits {
    /** Largest frame payload: 16 MiB. */
    public static final int MAX_PAYLOAD = 16 * 1024 * 1024;
    /** Largest collective data: the payload less the 16-byte collective header. */
    public static final int MAX_COLLECTIVE_DATA = MAX_PAYLOAD - 16;
    /** Largest user tag; tags above are reserved. */
    public static final long MAX_USER_TAG = 0x7fff_ffffL;
    /** Ranks per job. */
    public static final int MIN_SIZE = 1;
    public static final int MAX_SIZE = 4096;
    /** Largest join token carried in HELLO. */
    public static final int MAX_TOKEN = 8192;
    /** Largest ABORT message. */
    public static final int MAX_ABORT_MESSAGE = 1024;
    /** Largest CKPT_DATA chunk: 1 MiB. */
    public static final int MAX_CHUNK = 1024 * 1024;
    /** Host names: 1..253 bytes. */
    public static final int MAX_HOST = 253;
    /** Silence limit bounds in milliseconds, and the default. */
    public static final long MIN_SILENCE_MS = 2000;
    public static final long MAX_SILENCE_MS = 3_600_000;
    public static final long DEFAULT_SILENCE_MS = 5000;
    /** A connection with nothing else to send sends a HEARTBEAT after this long. */
    public static final long HEARTBEAT_INTERVAL_MS = 1000;
    /**
     * How long a rank whose peer closed without BYE waits for an ABORT on its other connections before it ends the
     * job itself with H1613 (protocol 7.5): a rank that received the decider's ABORT closes at once, and its close
     * can overtake the ABORT to a third rank, which would then report the close instead of the job's verdict.
     */
    public static final long CLOSE_GRACE_MS = 500;
    /** Protocol version carried in HELLO, CKPT_BEGIN and the files. */
    public static final int VERSION = 1;
    /** Feature bit 0: the v1 base protocol. */
    public static final long FEATURE_V1_BASE = 1L;

    private Limits() {
    }
}
