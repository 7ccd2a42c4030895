/**
 * Frames: the 52-byte header ({@link org.sperli.protocol.frame.FrameHeader}), the frame types with the payload
 * lengths each allows ({@link org.sperli.protocol.frame.FrameType#lengthRule}), and the receiver's header check
 * ({@link org.sperli.protocol.frame.HeaderCheck}). This package sits above the payload layouts
 * ({@code org.sperli.protocol.payload}) and {@link org.sperli.protocol.CommitLayout}, whose constants give the
 * lengths, and below the transport and runtime that read and write frames. Like every protocol package it imports
 * nothing of SPERLI but the job API's codes ({@code org.sperli}) and the protocol itself: not the checkpoint files,
 * not the crypto.
 */
package org.sperli.protocol.frame;
