/**
 * The bottom of the protocol: its fixed limits ({@link org.sperli.protocol.Limits}), the little-endian field access
 * and refusals every layout shares ({@link org.sperli.protocol.Wire}), the job id, and the offsets and lengths of the
 * COMMIT file that frames carry ({@link org.sperli.protocol.CommitLayout}). The payload layouts are in
 * {@code org.sperli.protocol.payload}, the frame header, frame types and the receiver's header check in
 * {@code org.sperli.protocol.frame}; both build on this package, which imports none of them.
 *
 * <p>The protocol packages are the bottom of {@code common}: they import nothing of SPERLI but the job API's
 * {@code ErrorCode} and {@code SperliException} ({@code org.sperli}) and each other, so that a second implementation
 * can read the wire format here without the checkpoint files, the crypto or the runtime
 * ({@code ArchitectureTest} in the launcher's tests checks this).
 */
package org.sperli.protocol;
