/**
 * The interface to the array type (the protocol's "Interface to the array type"): {@link org.sperli.ArrayType}
 * with encode, decode, elementType, shape and the reduce hook; the ready types in
 * {@link org.sperli.array.ArrayTypes} (flat Java arrays of every element type and the shaped
 * {@link org.sperli.array.Matrix2D}); and {@link org.sperli.ContributionFold}, through which the root of a
 * reduce folds values with a shape.
 *
 * <p>This package is codecs and arithmetic only: it works on {@code ByteBuffer}s and arrays, does no I/O and knows
 * nothing of frames or connections. The collectives over these types are
 * {@link org.sperli.Communicator}'s methods that take an {@code ArrayType}. Public: the three types named above and
 * {@code Matrix2D}; the implementations are package-private behind the constants of {@code ArrayTypes}.
 */
package org.sperli.array;
