package org.sperli.jobspec;

import java.util.Arrays;
import java.util.Random;

/**
 * Small corruptions of valid encodings for the property tests: flipped bytes, length-like windows set to all ones
 * (0xffff, 0xffffffff, ...), zeroed windows, cuts and extensions.
 */
public final class Mutations {
    private Mutations() {
    }

    /** One to three mutations of a copy of {@code valid}, chosen by {@code random}. */
    public static byte[] mutate(byte[] valid, Random random) {
        byte[] b = valid.clone();
        int count = 1 + random.nextInt(3);
        for (int i = 0; i < count; i++) {
            b = mutateOnce(b, random);
        }
        return b;
    }

    private static byte[] mutateOnce(byte[] b, Random random) {
        int kind = random.nextInt(7);
        if (b.length == 0) {
            kind = 5;
        }
        int at = b.length == 0 ? 0 : random.nextInt(b.length);
        switch (kind) {
            case 0 -> b[at] ^= (byte) (1 + random.nextInt(255));
            case 1 -> fill(b, at, 2, 0xff);
            case 2 -> fill(b, at, 4, 0xff);
            case 3 -> fill(b, at, 8, 0xff);
            case 4 -> b = Arrays.copyOf(b, at);
            case 5 -> {
                int extra = 1 + random.nextInt(8);
                b = Arrays.copyOf(b, b.length + extra);
                for (int i = b.length - extra; i < b.length; i++) {
                    b[i] = (byte) random.nextInt(256);
                }
            }
            default -> fill(b, at, 1 + random.nextInt(4), 0);
        }
        return b;
    }

    private static void fill(byte[] b, int at, int n, int value) {
        Arrays.fill(b, at, Math.min(b.length, at + n), (byte) value);
    }
}
