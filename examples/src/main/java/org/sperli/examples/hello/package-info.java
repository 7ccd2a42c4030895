/** The hello example: rank and size. Packaged alone as {@code sperli-examples-<version>-hello.jar}. */
package org.sperli.examples.hello;
