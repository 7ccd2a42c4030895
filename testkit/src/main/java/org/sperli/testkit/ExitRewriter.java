package org.sperli.testkit;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Points a class's calls of {@code System.exit(int)} at {@link ExitTrap#exit} by editing its constant pool only: the
 * class gets two new entries (the name {@code org/sperli/testkit/ExitTrap} and a class entry of it), and every method
 * reference to {@code java/lang/System.exit(I)V} (also through a method handle, {@code System::exit}) names that class
 * instead. The code, its stack map frames and every other index stay as they are, so the class verifies as before.
 * {@code Runtime.getRuntime().exit} and {@code halt} are instance calls that this edit cannot redirect; they are not
 * trapped.
 */
final class ExitRewriter {
    private static final int MAGIC = 0xCAFEBABE;
    private static final int UTF8 = 1;
    private static final int CLASS = 7;
    private static final int METHODREF = 10;
    private static final int NAME_AND_TYPE = 12;
    private static final String TRAP = ExitTrap.class.getName().replace('.', '/');

    private ExitRewriter() {
    }

    /** {@code classFile} with its System.exit calls trapped, or the same array when it makes none. */
    static byte[] rewrite(byte[] classFile) {
        try {
            return rewriteOrSame(classFile);
        } catch (IOException | RuntimeException e) {
            // A class this parser does not understand is left alone; the JVM judges it as it would anyway.
            return classFile;
        }
    }

    private static byte[] rewriteOrSame(byte[] classFile) throws IOException {
        ByteBuffer in = ByteBuffer.wrap(classFile);
        if (in.getInt() != MAGIC) {
            return classFile;
        }
        in.position(8);
        int count = in.getShort() & 0xffff;
        int[] offsets = new int[count];
        int[] tags = new int[count];
        for (int i = 1; i < count; i++) {
            offsets[i] = in.position();
            tags[i] = in.get() & 0xff;
            int width = width(tags[i], in);
            in.position(in.position() + width);
            if (tags[i] == 5 || tags[i] == 6) {
                i++;
            }
        }
        int poolEnd = in.position();
        List<Integer> exitRefs = new ArrayList<>();
        for (int i = 1; i < count; i++) {
            if (tags[i] == METHODREF && isSystemExit(classFile, offsets, tags, i)) {
                exitRefs.add(i);
            }
        }
        if (exitRefs.isEmpty() || count + 2 > 0xffff) {
            return classFile;
        }
        return withTrap(classFile, offsets, count, poolEnd, exitRefs);
    }

    private static byte[] withTrap(byte[] classFile, int[] offsets, int count, int poolEnd, List<Integer> exitRefs)
            throws IOException {
        byte[] edited = classFile.clone();
        int trapClass = count + 1;
        for (int ref : exitRefs) {
            ByteBuffer.wrap(edited).putShort(offsets[ref] + 1, (short) trapClass);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(classFile.length + 64);
        DataOutputStream data = new DataOutputStream(out);
        data.write(edited, 0, 8);
        data.writeShort(count + 2);
        data.write(edited, 10, poolEnd - 10);
        data.writeByte(UTF8);
        data.writeUTF(TRAP);
        data.writeByte(CLASS);
        data.writeShort(count);
        data.write(edited, poolEnd, edited.length - poolEnd);
        data.flush();
        return out.toByteArray();
    }

    private static boolean isSystemExit(byte[] classFile, int[] offsets, int[] tags, int methodref) {
        ByteBuffer b = ByteBuffer.wrap(classFile);
        int classIndex = b.getShort(offsets[methodref] + 1) & 0xffff;
        int nameAndType = b.getShort(offsets[methodref] + 3) & 0xffff;
        if (tags[classIndex] != CLASS || tags[nameAndType] != NAME_AND_TYPE) {
            return false;
        }
        String owner = utf8(classFile, offsets, tags, b.getShort(offsets[classIndex] + 1) & 0xffff);
        String name = utf8(classFile, offsets, tags, b.getShort(offsets[nameAndType] + 1) & 0xffff);
        String descriptor = utf8(classFile, offsets, tags, b.getShort(offsets[nameAndType] + 3) & 0xffff);
        return "java/lang/System".equals(owner) && "exit".equals(name) && "(I)V".equals(descriptor);
    }

    private static String utf8(byte[] classFile, int[] offsets, int[] tags, int index) {
        if (tags[index] != UTF8) {
            return null;
        }
        try {
            DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(classFile, offsets[index] + 1,
                    classFile.length - offsets[index] - 1));
            return in.readUTF();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Bytes after the tag of a constant of {@code tag}; {@code in} stands just after the tag. */
    private static int width(int tag, ByteBuffer in) {
        return switch (tag) {
            case UTF8 -> 2 + (in.getShort(in.position()) & 0xffff);
            case CLASS, 8, 16, 19, 20 -> 2;
            case 15 -> 3;
            case 3, 4, METHODREF, 9, 11, NAME_AND_TYPE, 17, 18 -> 4;
            case 5, 6 -> 8;
            default -> throw new IllegalArgumentException("constant pool tag " + tag);
        };
    }
}
