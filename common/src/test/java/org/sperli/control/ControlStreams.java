package org.sperli.control;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.sperli.jobspec.DescriptionLine;
import org.sperli.jobspec.EncodedHostList;
import org.sperli.jobspec.JobDescription;
import org.sperli.jobspec.JobSpecSamples;
import org.sperli.protocol.LeBytes;

/**
 * Helpers of the control stream tests: frames built field by field with {@link LeBytes}, independently of
 * {@link ControlFrames}, and readers of both directions.
 */
final class ControlStreams {
    private ControlStreams() {
    }

    /** A frame: u32 length of type and body, the type, the body. */
    static byte[] frame(int type, byte[] body) {
        return LeBytes.le().u32(1 + body.length).u8(type).bytes(body).toBytes();
    }

    /** The rank and incarnation that start every body about one rank. */
    static LeBytes ref(long rank, long incarnation) {
        return LeBytes.le().u32(rank).u64(incarnation);
    }

    /** A string: u32 length and the UTF-8 bytes. */
    static LeBytes string(LeBytes to, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        return to.u32(b.length).bytes(b);
    }

    /** A reader of the frames a launcher sends (the agent's side). */
    static ControlFrameReader launcherFrames(byte[] stream) {
        return new ControlFrameReader(new ByteArrayInputStream(stream), true);
    }

    /** A reader of the frames an agent sends (the launcher's side). */
    static ControlFrameReader agentFrames(byte[] stream) {
        return new ControlFrameReader(new ByteArrayInputStream(stream), false);
    }

    /** Every frame of {@code reader} up to the clean end of its stream. */
    static List<ControlFrame> all(ControlFrameReader reader) {
        List<ControlFrame> frames = new ArrayList<>();
        try {
            for (ControlFrame f = reader.next(); f != null; f = reader.next()) {
                frames.add(f);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return frames;
    }

    /** The description line of {@code rank} in a sample job of {@code size} (incarnation 1). */
    static DescriptionLine line(int size, int rank) {
        JobDescription d = JobSpecSamples.description(size, rank);
        return d.toLine(EncodedHostList.of(d.hosts()));
    }
}
