/**
 * The reduce arithmetic of tables section 5 ({@link org.sperli.collective.Combine}), which the ready array types of
 * {@code org.sperli.array} and the runtime's collectives share. It builds on {@code org.sperli} alone.
 *
 * <p>{@code Combine} is the only public type of the arithmetic. Package-private: the loops ({@code *Kernels}, one
 * tight loop per type and operation, chosen once per call, each class with the per-element rules its byte and typed
 * forms share) and their little-endian array access ({@code LittleEndian}). This package works on {@code ByteBuffer}s
 * and arrays only: no I/O, no Netty, no allocation per element, and no change to a caller's buffer positions. It does
 * not decide fold order; the caller folds contributions left in ascending rank order, because float sum and product
 * are not associative.
 *
 * <p>{@code F32Kernels}/{@code F64Kernels} and {@code Int32Kernels}/{@code Int64Kernels} are not in this directory:
 * the build makes each pair from one template in {@code src/main/java-templates} (see
 * {@code src/build/ExpandTemplates.java}), so that a rule is written once for both widths and each width still gets
 * loops of its own element type.
 */
package org.sperli.collective;
