package org.sperli.runtime;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.sperli.protocol.frame.FrameHeader;
import org.sperli.protocol.frame.FrameType;
import org.sperli.protocol.payload.Abort;
import org.sperli.protocol.payload.Hello;

/**
 * A hand-driven peer for refusal tests: plain JSSE, so it can send anything a real rank never would. It dials a
 * listening rank as a lower rank (the accepting side), with bounded waits everywhere.
 */
final class RoguePeer implements AutoCloseable {
    final Socket socket;
    final OutputStream out;
    final DataInputStream in;

    private RoguePeer(Socket socket) throws IOException {
        this.socket = socket;
        socket.setSoTimeout(15_000);
        this.out = socket.getOutputStream();
        this.in = new DataInputStream(socket.getInputStream());
    }

    /** A TCP connection to {@code port}, retried while the rank is not yet listening. */
    static Socket tcp(int port) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (true) {
            Socket s = new Socket();
            try {
                s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
                return s;
            } catch (IOException e) {
                s.close();
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(50);
            }
        }
    }

    /** TLS over a fresh connection with the given context and protocols; the handshake is done before returning. */
    static RoguePeer tls(SSLContext context, int port, String... protocols) throws Exception {
        Socket plain = tcp(port);
        SSLSocket s = (SSLSocket) context.getSocketFactory().createSocket(plain, "127.0.0.1", port, true);
        if (protocols.length > 0) {
            s.setEnabledProtocols(protocols);
        }
        s.setSoTimeout(15_000);
        s.startHandshake();
        return new RoguePeer(s);
    }

    /** The next connection to {@code server} (a TLS server socket that requires the client's certificate). */
    static RoguePeer accepted(javax.net.ssl.SSLServerSocket server) throws Exception {
        server.setNeedClientAuth(true);
        server.setSoTimeout(15_000);
        SSLSocket s = (SSLSocket) server.accept();
        s.setSoTimeout(15_000);
        s.startHandshake();
        return new RoguePeer(s);
    }

    static RoguePeer plain(int port) throws Exception {
        return new RoguePeer(tcp(port));
    }

    void send(FrameHeader header, byte[] payload) throws IOException {
        byte[] frame = new byte[FrameHeader.LENGTH + payload.length];
        header.writeUnchecked(ByteBuffer.wrap(frame), 0);
        System.arraycopy(payload, 0, frame, FrameHeader.LENGTH, payload.length);
        out.write(frame);
        out.flush();
    }

    void sendHello(TestJob job, int asRank, int toRank, byte[] token) throws IOException {
        byte[] hello = Hello.v1(token).toBytes();
        send(FrameHeader.of(FrameType.HELLO, hello.length, job.job, asRank, toRank, job.incarnation, 0, 0), hello);
    }

    /** Reads one frame (header and payload) and returns its header, or null at end of stream. */
    FrameHeader readFrame() throws IOException {
        byte[] h = new byte[FrameHeader.LENGTH];
        try {
            in.readFully(h);
        } catch (java.io.EOFException e) {
            return null;
        }
        FrameHeader header = FrameHeader.read(ByteBuffer.wrap(h), 0);
        in.skipNBytes(header.length());
        return header;
    }

    /** A frame as it came off the wire: its header and its payload. */
    record Read(FrameHeader header, byte[] payload) {
    }

    /** Reads frames until one of {@code type} arrives and returns it whole; null when the stream ends first. */
    Read readWhole(FrameType type) throws IOException {
        while (true) {
            byte[] h = new byte[FrameHeader.LENGTH];
            try {
                in.readFully(h);
            } catch (java.io.EOFException e) {
                return null;
            }
            FrameHeader header = FrameHeader.read(ByteBuffer.wrap(h), 0);
            byte[] payload = in.readNBytes((int) header.length());
            if (header.frameType() == type) {
                return new Read(header, payload);
            }
        }
    }

    /** Reads frames until one of {@code type} arrives; null when the stream ends first. */
    FrameHeader readUntil(FrameType type) throws IOException {
        FrameHeader h;
        do {
            try {
                h = readFrame();
            } catch (IOException e) {
                return null;
            }
        } while (h != null && h.frameType() != type);
        return h;
    }

    /** Reads until an ABORT header arrives; null when the stream ends or fails first. */
    FrameHeader readUntilAbortHeader() {
        try {
            return readUntil(FrameType.ABORT);
        } catch (IOException e) {
            return null;
        }
    }

    /** Reads frames until an ABORT arrives and decodes it; null when the stream ends or fails first. */
    Abort readUntilAbort() {
        try {
            while (true) {
                byte[] h = new byte[FrameHeader.LENGTH];
                in.readFully(h);
                FrameHeader header = FrameHeader.read(ByteBuffer.wrap(h), 0);
                byte[] payload = in.readNBytes((int) header.length());
                if (header.frameType() == FrameType.ABORT) {
                    return Abort.read(ByteBuffer.wrap(payload));
                }
            }
        } catch (IOException e) {
            return null;
        }
    }

    InputStream input() {
        return in;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
