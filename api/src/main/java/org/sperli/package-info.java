/**
 * The job API: what a job's code sees of SPERLI. A job implements {@link org.sperli.SperliJob}; the rank daemon
 * hands it a {@link org.sperli.Communicator} (rank, size, send/recv with a tag, barrier, bcast, reduce, allreduce,
 * gather, scatter, checkpoints); failures are {@link org.sperli.SperliException}s carrying an
 * {@link org.sperli.ErrorCode}; {@link org.sperli.ArrayType} is the interface through which typed values travel.
 *
 * <p>The packages of this module form layers, each importing only those below it: this package at the bottom (it
 * imports neither of the others), {@code org.sperli.collective} (the reduce arithmetic) on it, and
 * {@code org.sperli.array} (the ready array types) on both. Nothing here imports the runtime: the module has no
 * dependencies, so a job's build needs nothing else.
 */
package org.sperli;
