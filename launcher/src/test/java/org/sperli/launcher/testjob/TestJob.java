package org.sperli.launcher.testjob;

import java.nio.charset.StandardCharsets;
import java.util.TreeSet;
import org.sperli.Communicator;
import org.sperli.SperliJob;

/**
 * The job of the launcher's end-to-end tests, one class so that its jar holds nothing else. Every rank first prints
 * {@code rank=R size=S incarnation=I pid=P}; then, by {@code args[0]}:
 *
 * <ul>
 *   <li>{@code ring}: every rank sends its rank to rank 0, which prints {@code sum=S incarnation=I};</li>
 *   <li>{@code kill-rank-1}: in incarnation 1 rank 1 waits to be killed (the test sends SIGKILL to the pid it
 *       printed) while the others wait for a message from it, so they see a lost peer; from incarnation 2 on, ring;</li>
 *   <li>{@code wait}: prints {@code waiting} and sleeps until the launcher stops the job;</li>
 *   <li>{@code env NAME...}: prints {@code env NAME=VALUE} (or {@code env NAME unset}) for each name, and rank 0 then
 *       {@code env-names A,B,...}, every variable name of its environment in order.</li>
 * </ul>
 *
 * Only point-to-point messages are used, so the tests depend on nothing but the transport.
 */
public final class TestJob implements SperliJob {
    private static final int TAG = 7;
    private static final long WAIT_MS = 60_000;

    @Override
    public void run(Communicator comm, String[] args) throws Exception {
        String mode = args.length > 0 ? args[0] : "ring";
        System.out.println("rank=" + comm.rank() + " size=" + comm.size() + " incarnation=" + comm.incarnation()
                + " pid=" + ProcessHandle.current().pid());
        switch (mode) {
            case "ring" -> ring(comm);
            case "kill-rank-1" -> {
                if (comm.incarnation() > 1) {
                    ring(comm);
                } else if (comm.rank() == 1) {
                    Thread.sleep(WAIT_MS);
                } else {
                    comm.recv(1, TAG);
                }
            }
            case "wait" -> {
                System.out.println("waiting");
                Thread.sleep(WAIT_MS);
            }
            case "env" -> {
                for (int i = 1; i < args.length; i++) {
                    String value = System.getenv(args[i]);
                    System.out.println("env " + args[i] + (value == null ? " unset" : "=" + value));
                }
                if (comm.rank() == 0) {
                    System.out.println("env-names " + String.join(",", new TreeSet<>(System.getenv().keySet())));
                }
            }
            default -> throw new IllegalArgumentException("unknown mode " + mode);
        }
    }

    private static void ring(Communicator comm) {
        if (comm.rank() != 0) {
            comm.send(0, TAG, Integer.toString(comm.rank()).getBytes(StandardCharsets.US_ASCII));
            return;
        }
        long sum = 0;
        for (int source = 1; source < comm.size(); source++) {
            sum += Long.parseLong(new String(comm.recv(source, TAG), StandardCharsets.US_ASCII));
        }
        System.out.println("sum=" + sum + " incarnation=" + comm.incarnation());
    }
}
