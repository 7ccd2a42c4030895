/**
 * The test kit: a job's ranks run as threads of the calling JVM, each with its own runtime, rank certificate and
 * loopback port, over real TLS 1.3 and exactly the protocol a real job speaks ({@link org.sperli.testkit.SperliTestKit}
 * is where to start). Faults on purpose, restarts that resume from the newest COMMIT, and a trace in Chrome's Trace
 * Event format. Nothing here needs a test framework; a failed expectation is an {@link java.lang.AssertionError}.
 */
package org.sperli.testkit;
