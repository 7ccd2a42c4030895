/**
 * Frames: the 52-byte header ({@link org.sperli.protocol.frame.FrameHeader}), the frame types with the payload
 * lengths each allows ({@link org.sperli.protocol.frame.FrameType#lengthRule}), and the receiver's header check
 * ({@link org.sperli.protocol.frame.HeaderCheck}). This package sits above the payload layouts
 * ({@code org.sperli.protocol.payload}) and the COMMIT file ({@code org.sperli.checkpoint}), whose constants give
 * the lengths, and below the transport and runtime that read and write frames.
 */
package org.sperli.protocol.frame;
