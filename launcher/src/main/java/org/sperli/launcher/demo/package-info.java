/**
 * {@code sperli demo}'s own job (used when the examples module is not built) and the writer of job jars that the demo
 * and the tests use.
 */
package org.sperli.launcher.demo;
