package org.sperli.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.codec.ByteToMessageDecoder;

/**
 * Gathers the TLS records read from the socket in a heap buffer. The JDK's {@code SSLEngine} hands its record to
 * {@code Cipher.doFinal(ByteBuffer, ByteBuffer)}; a provider that decrypts byte arrays only (ACCP, the JDK's own
 * ciphers on some paths) is then served through {@code CipherSpi.bufferCrypt}, which copies a direct buffer in small
 * chunks and makes the provider buffer the whole record again. One bulk copy of the ciphertext here costs a fraction
 * of that (see docs/performance.md, section 6.4).
 */
final class HeapCumulator implements ByteToMessageDecoder.Cumulator {
    static final HeapCumulator INSTANCE = new HeapCumulator();

    /** The smallest heap cumulation: one full TLS record and its header, so most records need no second copy. */
    private static final int MIN_CAPACITY = 17 * 1024;

    private HeapCumulator() {
    }

    @Override
    public ByteBuf cumulate(ByteBufAllocator alloc, ByteBuf cumulation, ByteBuf in) {
        try {
            int needed = in.readableBytes();
            if (cumulation.hasArray() && cumulation.refCnt() == 1 && !cumulation.isReadOnly()
                    && cumulation.maxWritableBytes() >= needed) {
                if (cumulation.writableBytes() < needed) {
                    cumulation.discardSomeReadBytes();
                }
                cumulation.writeBytes(in);
                return cumulation;
            }
            int have = cumulation.readableBytes();
            ByteBuf heap = alloc.heapBuffer(Math.max(MIN_CAPACITY, have + needed));
            heap.writeBytes(cumulation).writeBytes(in);
            cumulation.release();
            return heap;
        } finally {
            in.release();
        }
    }
}
