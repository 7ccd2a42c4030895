/**
 * The pi example: numeric integration and one allreduce. Packaged alone as
 * {@code sperli-examples-<version>-pi.jar}.
 */
package org.sperli.examples.pi;
