/** The ring example: point-to-point send and receive. Packaged alone as {@code sperli-examples-<version>-ring.jar}. */
package org.sperli.examples.ring;
