/**
 * One rank's life: building the mesh of connections, the HELLO exchange, tag matching, heartbeats and silence,
 * aborts, collectives, checkpoints and resume, and the blocking job API on top ({@link org.sperli.runtime.RankRuntime},
 * whose Javadoc names the parts). Each part holds its own state behind methods; none reads another's fields. Netty is
 * used only through {@code org.sperli.transport}'s {@code PeerChannel} and the write futures it returns; protocol rules
 * come from {@code org.sperli.protocol}.
 */
package org.sperli.runtime;
