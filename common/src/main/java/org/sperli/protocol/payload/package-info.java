/**
 * One codec per payload layout of SPERLI v1 (tables sections 2 and 4): HELLO, HEARTBEAT, ABORT, CKPT_BEGIN,
 * CKPT_DATA, CKPT_ACK, RESUME and the collective header. DATA is raw bytes, BYE is empty and CKPT_COMMIT is a COMMIT
 * file, so they have no codec here.
 *
 * <p>Every codec is a record with the same shape: {@code read(ByteBuffer)} decodes exactly the bytes from the
 * buffer's position to its limit (the payload the frame header announced), refuses cut input and trailing bytes with
 * the H code of the tables, and never moves the caller's position; {@code encodedLength()}, {@code write(ByteBuffer)}
 * and {@code toBytes()} encode, and refuse with {@link java.lang.IllegalArgumentException} whatever the decoder
 * would refuse. Large parts (checkpoint chunks, COMMIT bytes) are read-only slices of the input, never copies.
 *
 * <p>What must not live here: Netty, I/O, clocks, or parsing of nested structures (the join token belongs to
 * {@code org.sperli.identity}, the COMMIT file to {@code org.sperli.checkpoint}). Rules that need more than one
 * frame are small explicit state objects such as {@link org.sperli.protocol.payload.ChunkSequence}.
 */
package org.sperli.protocol.payload;
