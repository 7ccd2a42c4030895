/**
 * The reduce arithmetic of tables section 5 ({@link org.sperli.collective.Combine}), which the ready array types of
 * {@code org.sperli.array} and the runtime's collectives share. It builds on {@code org.sperli} alone.
 *
 * <p>{@code Combine} is the only public type of the arithmetic. Package-private: the per-element rules
 * ({@code ElementRules}), the loops ({@code *Kernels}, one tight loop per type and operation, chosen once per call)
 * and their little-endian array access ({@code LittleEndian}). This package works on {@code ByteBuffer}s and arrays
 * only: no I/O, no Netty, no allocation per element, and no change to a caller's buffer positions. It does not
 * decide fold order; the caller folds contributions left in ascending rank order, because float sum and product are
 * not associative.
 */
package org.sperli.collective;
