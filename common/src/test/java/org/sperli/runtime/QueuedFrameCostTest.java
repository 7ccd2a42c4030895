package org.sperli.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.security.SecureRandom;
import org.junit.jupiter.api.Test;
import org.sperli.jvm.Clock;
import org.sperli.transport.Progress;
import org.sperli.protocol.JobId;
import org.sperli.protocol.frame.FrameHeader;
import org.sperli.protocol.frame.FrameType;
import org.sperli.transport.FlowControl;
import org.sperli.transport.Frame;

/**
 * A queued frame costs flow control its payload and its objects, and keeps no more of the read buffer than its own
 * bytes: a flood of small unexpected messages pauses reading as a few large ones do.
 */
class QueuedFrameCostTest {
    private static final JobId JOB = JobId.random(new SecureRandom());
    private static final int SMALL = 8;

    @Test
    void smallMessagesPauseReadingByWhatTheirQueueCostsNotByTheirPayloadAlone() {
        FlowControl flow = new FlowControl();
        EmbeddedChannel channel = new EmbeddedChannel(flow);
        Mailbox mailbox = new Mailbox(2, 0, new JobFate(Clock.SYSTEM), Progress.NONE, Clock.SYSTEM);
        mailbox.attach(1, flow);
        long pauseAfter = FlowControl.PAUSE_ABOVE_BYTES / (SMALL + Mailbox.QUEUED_FRAME_OVERHEAD_BYTES) + 1;
        for (long i = 0; i < pauseAfter - 1; i++) {
            mailbox.deliver(1, Mailbox.Kind.DATA, frame(Unpooled.buffer(SMALL).writeZero(SMALL)));
        }
        assertTrue(channel.config().isAutoRead(), "still reading below the bound");
        mailbox.deliver(1, Mailbox.Kind.DATA, frame(Unpooled.buffer(SMALL).writeZero(SMALL)));
        assertFalse(channel.config().isAutoRead(), "paused after " + pauseAfter + " 8-byte messages, not after "
                + FlowControl.PAUSE_ABOVE_BYTES / SMALL);
        assertEquals(pauseAfter * (SMALL + Mailbox.QUEUED_FRAME_OVERHEAD_BYTES), mailbox.queuedBytes(1));
        mailbox.releaseAll();
        assertEquals(0, mailbox.queuedBytes(1));
        channel.finishAndReleaseAll();
    }

    @Test
    void aQueuedSmallFrameLetsGoOfTheReadBufferItWasSlicedFrom() {
        ByteBuf readBuffer = Unpooled.buffer(17 * 1024).writeZero(17 * 1024);
        Frame sliced = frame(readBuffer.retainedSlice(100, SMALL));
        readBuffer.release();
        Frame kept = sliced.detached();
        assertNotSame(sliced, kept);
        assertEquals(0, readBuffer.refCnt(), "the read buffer is free once the queued frame has its own copy");
        assertEquals(SMALL, kept.payload().array().length);
        kept.release();
    }

    @Test
    void aFrameThatOwnsItsExactArrayIsKeptAsItIs() {
        Frame gathered = frame(Unpooled.buffer(SMALL, SMALL).writeZero(SMALL));
        assertTrue(gathered == gathered.detached());
        gathered.release();
    }

    private static Frame frame(ByteBuf payload) {
        return new Frame(FrameHeader.of(FrameType.DATA, payload.readableBytes(), JOB, 1, 0, 1, 3, 0), payload);
    }
}
