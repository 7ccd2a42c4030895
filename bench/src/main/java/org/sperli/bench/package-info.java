/**
 * Benchmark commands, one class per {@code scripts/bench NAME} ({@code NameBench}): each prints a table with the
 * baselines it is judged against (plain TCP, bare JSSE, {@code dd}, Open MPI where installed) measured in the same run,
 * because this project's machines are shared and only side-by-side ratios mean something. Not part of any
 * distribution; nothing else depends on this module.
 */
package org.sperli.bench;
