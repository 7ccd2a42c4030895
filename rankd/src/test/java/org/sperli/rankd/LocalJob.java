package org.sperli.rankd;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.sperli.identity.JobKit;
import org.sperli.jobspec.JobDescription;

/** A job on 127.0.0.1 for tests: free ports, a job kit, and each rank's description line. */
final class LocalJob {
    private static final SecureRandom RANDOM = new SecureRandom();

    final JobKit kit;

    LocalJob(int size, long silenceMs) {
        List<JobDescription.HostEntry> hosts = new ArrayList<>();
        for (int port : freePorts(size)) {
            hosts.add(new JobDescription.HostEntry("127.0.0.1", port));
        }
        kit = JobKit.create(hosts, silenceMs, Duration.ofHours(1), Instant.now(), RANDOM);
    }

    /** The description line of {@code rank}, incarnation 1, line feed included. */
    byte[] line(int rank) {
        return kit.description(rank, 1, Instant.now()).toHexLineBytes();
    }

    /**
     * Ports the kernel just handed out on the wildcard address (where ranks listen), all distinct. Another process
     * could take one before the rank binds it; the ephemeral range makes that unlikely within a test.
     */
    static List<Integer> freePorts(int count) {
        Set<Integer> seen = new HashSet<>();
        List<Integer> ports = new ArrayList<>();
        while (ports.size() < count) {
            try (ServerSocket socket = new ServerSocket()) {
                socket.setReuseAddress(false);
                socket.bind(new InetSocketAddress("0.0.0.0", 0));
                if (seen.add(socket.getLocalPort())) {
                    ports.add(socket.getLocalPort());
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return ports;
    }
}
