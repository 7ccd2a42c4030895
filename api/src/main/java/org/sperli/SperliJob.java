package org.sperli;

/**
 * A SPERLI job: the class a job jar names in its manifest ({@code Sperli-Job: com.example.Pi}). It needs a public
 * no-argument constructor. Every rank runs {@link #run} once per incarnation; returning normally means the rank
 * completed, throwing means the program failed (the rank sends ABORT reason 7 and the job ends).
 */
public interface SperliJob {
    /** The manifest attribute naming the job class. */
    String MANIFEST_ATTRIBUTE = "Sperli-Job";

    /**
     * Runs this rank's part of the job.
     *
     * @param comm the connected job: rank, size, messages and collectives
     * @param args the job arguments given to {@code sperli run} after the jar
     */
    void run(Communicator comm, String[] args) throws Exception;
}
