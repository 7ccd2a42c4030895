/**
 * One rank's life: building the mesh of connections, the HELLO exchange, tag matching, heartbeats and silence,
 * aborts, and the blocking job API on top. Netty is used only through {@code org.sperli.transport}'s handlers and
 * channels; protocol rules come from {@code org.sperli.protocol}.
 */
package org.sperli.runtime;
