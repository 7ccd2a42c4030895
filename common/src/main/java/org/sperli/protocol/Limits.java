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
    /** A connection with nothing else to send sends a HEARTBEAT after this long, at the least. */
    public static final long HEARTBEAT_INTERVAL_MS = 1000;
    /** Heartbeat intervals in a silence limit: a longer limit waits longer between heartbeats, a fifth of it. */
    public static final long HEARTBEATS_PER_SILENCE = 5;
    /**
     * The longest heartbeat interval, whatever the limit: a connection through a stateful firewall or NAT must not idle
     * long enough to be forgotten there.
     */
    public static final long MAX_HEARTBEAT_INTERVAL_MS = 15_000;
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
    /** Feature bit 1: mesh collectives (protocol section 7.4.1); a job uses them only when every rank announced it. */
    public static final long FEATURE_MESH_COLLECTIVES = 1L << 1;

    private Limits() {
    }

    /**
     * Protocol 7.5: how long a connection with nothing else to send waits before its HEARTBEAT under the job's silence
     * limit {@code silenceMs}: a fifth of the limit, at least {@value #HEARTBEAT_INTERVAL_MS} ms (so the default limit
     * of 5000 ms gives the 1000 ms of version 1) and at most {@value #MAX_HEARTBEAT_INTERVAL_MS} ms.
     */
    public static long heartbeatIntervalMs(long silenceMs) {
        return Math.min(MAX_HEARTBEAT_INTERVAL_MS, Math.max(HEARTBEAT_INTERVAL_MS, silenceMs / HEARTBEATS_PER_SILENCE));
    }
}
