/**
 * Inside a Slurm allocation: the allocation's nodes and slots, one {@code srun} step that starts a host agent per node,
 * and the agents' call-home (TLS 1.3, a pinned launcher certificate, a MUNGE credential) that carries each node's
 * control stream ({@code docs/sperli-agent.md} section 9).
 */
package org.sperli.launcher.slurm;
