/**
 * What a JVM of a job knows of itself: its one {@link org.sperli.jvm.Clock}, and what the JVMs of a job share about
 * their own start: the class lists from which a class-data archive is made, and the bounded child JVM that makes it,
 * used by the launcher for itself and its local ranks, and by a rank for the other ranks of its host.
 */
package org.sperli.jvm;
