package org.sperli.runtime;

import io.netty.channel.ChannelFuture;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.jvm.Clock;
import org.sperli.transport.OutboundFrame;
import org.sperli.transport.PeerChannel;

/**
 * The established connection of every peer, and whose HELLO was checked. A peer's connection is claimed once, by
 * the dialing or the accepting side as the ranks' order says; a second claim is H1611.
 */
final class Links {
    /** How many stall bounds a rank waits for its first peer. */
    static final int FIRST_CONTACT_FACTOR = 4;

    private final PeerChannel[] channels;
    private final boolean[] claimed;
    private final boolean[] helloDone;
    /** The feature bits of each peer's checked HELLO. */
    private final long[] features;
    private final int ownRank;
    private final Clock clock;
    private long lastProgressNs;
    private boolean contacted;
    private int handshakes;
    /** Peers whose HELLO was checked: counted, since every progress of a setup of 4095 peers asks. */
    private int hellosChecked;
    private Duration stall = Duration.ZERO;

    /** The connections of rank {@code ownRank} in a job of {@code size}, whose setup bound reads {@code clock}. */
    Links(int size, int ownRank, Clock clock) {
        this.channels = new PeerChannel[size];
        this.claimed = new boolean[size];
        this.helloDone = new boolean[size];
        this.features = new long[size];
        this.ownRank = ownRank;
        this.clock = clock;
        this.lastProgressNs = clock.nanoTime();
    }

    /**
     * Claims {@code peer}'s place for a connection; a rank that is not expected here, or already connected, is
     * H1611. The connection itself is {@link #put} once its pipeline is complete.
     */
    synchronized void claim(int peer, boolean expected) {
        boolean known = peer >= 0 && peer < channels.length && peer != ownRank;
        if (!expected || !known || claimed[peer]) {
            throw new SperliException(ErrorCode.H1611, "unexpected connection from rank " + peer
                    + (known && claimed[peer] ? " (already connected)" : ""));
        }
        claimed[peer] = true;
    }

    synchronized void put(int peer, PeerChannel channel) {
        channels[peer] = channel;
        progressed();
    }

    /**
     * The setup moved on: a peer's port answered, a handshake finished or a HELLO was checked. The setup's stall
     * bound counts from the last of these.
     */
    synchronized void progressed() {
        lastProgressNs = clock.nanoTime();
        contacted = true;
        notifyAll();
    }

    /**
     * The setup begins: its clock starts, no peer has been heard from yet, and it may go {@code stall} without
     * progress ({@link #stallBound}).
     */
    synchronized void setupBegins(Duration stall) {
        this.stall = stall;
        lastProgressNs = clock.nanoTime();
        contacted = false;
    }

    /** A handshake of this rank began: a dialed peer's port answered, or a connection was accepted. */
    synchronized void handshakeBegins() {
        handshakes++;
    }

    /** A handshake that {@link #handshakeBegins began} ended, whichever way. */
    synchronized void handshakeEnds() {
        handshakes--;
    }

    /**
     * How long the setup may go without progress now: the stall bound, or {@link #FIRST_CONTACT_FACTOR} times that
     * before any peer was heard from (the last rank is dialed last by every lower rank, which on a busy machine reach
     * it long after it listens) and while a handshake is under way (a rank that listens late is handed the
     * handshakes of every lower rank at once, and with many ranks on few cores may finish none of them within the
     * stall bound while all are progressing; each is bounded by itself; see docs/performance.md, section 5).
     */
    synchronized Duration stallBound() {
        return contacted && handshakes <= 0 ? stall : stall.multipliedBy(FIRST_CONTACT_FACTOR);
    }

    /**
     * Whether nothing has progressed for {@link #stallBound}: at the bound itself too, as {@link #awaitHellos} judges
     * it (protocol 13.5: the setup fails after the bound without progress).
     */
    synchronized boolean stalled() {
        return clock.nanoTime() - lastProgressNs >= stallBound().toNanos();
    }

    /** The connection of {@code peer}, or null while it has none. */
    synchronized PeerChannel channel(int peer) {
        return channels[peer];
    }

    /** {@code peer}'s HELLO was checked; it announced {@code peerFeatures}. */
    synchronized void helloChecked(int peer, long peerFeatures) {
        features[peer] = peerFeatures;
        if (!helloDone[peer]) {
            helloDone[peer] = true;
            hellosChecked++;
        }
        progressed();
    }

    /**
     * Whether every peer's checked HELLO announced {@code bit}. Asked after the setup, when every HELLO is known, so
     * that every rank decides alike (protocol section 7.4.1).
     */
    synchronized boolean everyPeerAnnounced(long bit) {
        for (int r = 0; r < features.length; r++) {
            if (r != ownRank && (!helloDone[r] || (features[r] & bit) == 0)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Waits until every peer's HELLO was checked, the job failed ({@code fate}), or nothing progressed for
     * {@link #stallBound}; returns whether all were checked.
     */
    synchronized boolean awaitHellos(JobFate fate) throws InterruptedException {
        while (true) {
            fate.throwIfFailed();
            if (allHellosChecked()) {
                return true;
            }
            long left = lastProgressNs + stallBound().toNanos() - clock.nanoTime();
            if (left <= 0) {
                return false;
            }
            wait(Math.max(1, left / 1_000_000));
        }
    }

    /** Whether every peer's HELLO was checked: the mesh of this rank is complete. */
    synchronized boolean allHellosChecked() {
        return hellosChecked == helloDone.length - 1;
    }

    /** Ranks whose HELLO was not checked yet, comma-separated. */
    synchronized String missing() {
        StringBuilder sb = new StringBuilder();
        for (int r = 0; r < channels.length; r++) {
            if (r != ownRank && !helloDone[r]) {
                sb.append(sb.length() == 0 ? "" : ",").append(r);
            }
        }
        return sb.toString();
    }

    synchronized void wakeAll() {
        notifyAll();
    }

    /** Writes {@code frames.apply(peer)} on every active connection of a peer for which {@code to} holds. */
    synchronized List<ChannelFuture> writeToAll(IntPredicate to, IntFunction<OutboundFrame> frames) {
        List<ChannelFuture> writes = new ArrayList<>();
        for (int r = 0; r < channels.length; r++) {
            if (channels[r] != null && channels[r].isActive() && to.test(r)) {
                writes.add(channels[r].write(frames.apply(r)));
            }
        }
        return writes;
    }

    /** The connections there are now. */
    synchronized List<PeerChannel> all() {
        List<PeerChannel> all = new ArrayList<>();
        for (PeerChannel c : channels) {
            if (c != null) {
                all.add(c);
            }
        }
        return all;
    }

    /** Starts closing every connection. */
    void closeAll() {
        for (PeerChannel c : all()) {
            c.close();
        }
    }
}
