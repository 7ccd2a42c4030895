package org.sperli.rankd.agent;

/**
 * Where and how an agent under Slurm calls home ({@code docs/sperli-agent.md} section 9): the launcher's port, the
 * SHA-256 of its certificate and its nonce (both hex), and this agent's Slurm node.
 */
public record CallHomeTarget(int port, String launcherSha256, String nonce, String node) {
}
