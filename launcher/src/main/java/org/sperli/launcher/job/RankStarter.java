package org.sperli.launcher.job;

import java.io.IOException;
import java.util.List;
import org.sperli.jobspec.DescriptionLine;
import org.sperli.jobspec.JobDescription.HostEntry;

/** Starts ranks on one kind of host: local processes, or SSH channels (org.sperli.launcher.ssh). */
public interface RankStarter {
    /**
     * Makes {@code host} ready before its ranks start there on {@code ports}, one a rank (for SSH: connect, log in,
     * check that it can hold them, memory and ports, stage the jar; for local ranks: check that this host can hold
     * them, once ranks moved here). Called before every incarnation, and again with more ports when ranks of a lost
     * host moved to it; cheap when the host is still ready.
     *
     * @throws HostUnreachableException when the host cannot be reached: its ranks move to another host
     */
    default void prepare(String host, List<Integer> ports) throws HostUnreachableException {
    }

    /**
     * Starts rank {@code rank} of incarnation {@code incarnation} (which its output lines carry) at {@code entry} and
     * writes {@code line} (the description line, with its line feed) to its stdin, which stays open while the rank
     * is supervised: its end tells the rank that the launcher is gone (protocol 4.1, 13.1). The caller wipes
     * {@code line} afterwards.
     */
    RankProcess start(int rank, long incarnation, HostEntry entry, DescriptionLine line) throws IOException;
}
