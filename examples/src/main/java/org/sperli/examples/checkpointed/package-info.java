/**
 * The checkpointed example: an iterative computation with one allreduce per step that checkpoints every N steps and
 * resumes after a restart with the same final result. Packaged alone as
 * {@code sperli-examples-<version>-checkpointed.jar}.
 */
package org.sperli.examples.checkpointed;
