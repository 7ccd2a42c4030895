package org.sperli.trace;

/**
 * What a traced event stands for: its name in the trace, its category, whether it is an instant (no duration), and
 * what its two numeric fields mean ({@code peer}: a peer, a root or a count; {@code seq}: a collective's sequence
 * number, an epoch or an incarnation), so that the writer names its arguments.
 */
public enum TraceKind {
    RUN("run", "program", null, "incarnation", false),
    CONNECT("connect", "setup", "peers", null, false),
    HELLO("HELLO checked", "setup", "peer", null, true),
    CLOSE("close", "setup", null, null, false),
    KILLED("killed", "fault", null, null, true),
    SEND("send", "p2p", "peer", null, false),
    RECV("recv", "p2p", "peer", null, false),
    ISEND("isend", "p2p", "peer", null, false),
    IRECV("irecv", "p2p", "peer", null, false),
    WAIT("wait", "p2p", "peer", null, false),
    TEST("test", "p2p", "peer", null, false),
    BARRIER("barrier", "collective", "root", "seq", false),
    BCAST("bcast", "collective", "root", "seq", false),
    REDUCE("reduce", "collective", "root", "seq", false),
    ALLREDUCE("allreduce", "collective", "root", "seq", false),
    GATHER("gather", "collective", "root", "seq", false),
    SCATTER("scatter", "collective", "root", "seq", false),
    CHECKPOINT("checkpoint", "checkpoint", null, "epoch", false),
    CKPT_WRITE("write state", "checkpoint", null, "epoch", false),
    CKPT_DURABLE("fsync, rename, ack", "checkpoint", null, "epoch", false),
    CKPT_BUDDY_OUT("buddy copy out", "checkpoint", "peer", "epoch", false),
    CKPT_BUDDY_IN("buddy copy in", "checkpoint", "peer", "epoch", false),
    CKPT_ACKS("await acks", "checkpoint", null, "epoch", false),
    CKPT_COMMIT("commit", "checkpoint", null, "epoch", false),
    RESUME("resume", "checkpoint", null, "epoch", false),
    RESUME_LOAD("load state", "checkpoint", null, "epoch", false);

    private final String title;
    private final String category;
    private final String peerArg;
    private final String seqArg;
    private final boolean instant;

    TraceKind(String title, String category, String peerArg, String seqArg, boolean instant) {
        this.title = title;
        this.category = category;
        this.peerArg = peerArg;
        this.seqArg = seqArg;
        this.instant = instant;
    }

    /** The event's name in the trace. */
    public String title() {
        return title;
    }

    public String category() {
        return category;
    }

    /** The argument name of the {@code peer} field, or null when the kind has none. */
    public String peerArg() {
        return peerArg;
    }

    /** The argument name of the {@code seq} field, or null when the kind has none. */
    public String seqArg() {
        return seqArg;
    }

    public boolean instant() {
        return instant;
    }
}
