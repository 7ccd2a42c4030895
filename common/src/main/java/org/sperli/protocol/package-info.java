/**
 * The bottom of the protocol: its fixed limits ({@link org.sperli.protocol.Limits}), the little-endian field access
 * and refusals every layout shares ({@link org.sperli.protocol.Wire}), and the job id. The payload layouts are in
 * {@code org.sperli.protocol.payload}, the frame header, frame types and the receiver's header check in
 * {@code org.sperli.protocol.frame}; both build on this package, which imports none of them.
 */
package org.sperli.protocol;
