package org.sperli.launcher.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sperli.identity.JobKit;
import org.sperli.jobspec.DescriptionLine;
import org.sperli.jobspec.JobDescription.HostEntry;
import org.sperli.jobspec.RefusedHostPolicy;
import org.sperli.jvm.Clock;
import org.sperli.launcher.exit.ExitCodes;
import org.sperli.launcher.exit.LauncherException;
import org.sperli.launcher.report.Console;

/**
 * A host that receives the ranks of a host that cannot be reached is judged again for its new number of ranks before
 * anything starts: an SSH host that was ready already, and this host for local ranks. The starters here are fakes
 * that hold {@value #HOLDS} ranks a host and start nothing, so that a judgement left out shows as a start, never as
 * processes.
 */
class JobSupervisorHostsTest {
    private static final int HOLDS = 2;

    /** What a fake starter was asked: host and number of ranks, and the ports, in order; whether a start was tried. */
    private static final class Recorder implements RankStarter {
        final List<String> prepared = Collections.synchronizedList(new ArrayList<>());
        final List<List<Integer>> ports = Collections.synchronizedList(new ArrayList<>());
        final List<Integer> started = Collections.synchronizedList(new ArrayList<>());
        private final String lostHostOrNull;

        Recorder(String lostHostOrNull) {
            this.lostHostOrNull = lostHostOrNull;
        }

        @Override
        public void prepare(String host, List<Integer> ports) throws HostUnreachableException {
            int ranks = ports.size();
            prepared.add(host + "=" + ranks);
            this.ports.add(ports);
            if (host.equals(lostHostOrNull)) {
                throw new HostUnreachableException(host, "test: no route", null);
            }
            if (ranks > HOLDS) {
                throw LauncherException.startFailed("host " + host + " cannot hold its " + ranks + " ranks", null);
            }
        }

        @Override
        public RankProcess start(int rank, long incarnation, HostEntry entry, DescriptionLine line)
                throws IOException {
            started.add(rank);
            throw new IOException("test: ranks are not started here");
        }
    }

    private final StringWriter said = new StringWriter();

    private JobSupervisor.Result run(List<HostSpec> hosts, RankStarter local, RankStarter remote) {
        HostPlan plan = HostPlan.build(hosts, 23000);
        JobKit kit = JobKit.create(plan.entries(), 5000, Duration.ofHours(1), Instant.now(), new SecureRandom());
        RefusedHostPolicy policy = RefusedHostPolicy.fromEnvironment(Map.of(), null, warning -> { });
        PrintWriter out = new PrintWriter(said, true);
        Console console = new Console(out, out, false, false, false);
        Clock clock = Clock.SYSTEM;
        return new JobSupervisor(plan, kit, policy, 0, false, local, remote, console,
                new LaunchTimeline(clock::nanoTime), clock, new IncarnationHistory(clock, clock::nanoTime)).run();
    }

    private static List<HostSpec> specs(String... hosts) {
        List<HostSpec> specs = new ArrayList<>();
        for (String host : hosts) {
            specs.add(new HostSpec(host, HostSpec.NO_PORT, "test"));
        }
        return specs;
    }

    @Test
    void anSshHostThatReceivesMovedRanksIsJudgedForItsNewNumberBeforeAnyRankStarts() {
        Recorder remote = new Recorder("node-a.example");
        Recorder local = new Recorder(null);

        JobSupervisor.Result result = run(specs("node-a.example", "node-b.example", "node-b.example",
                "node-a.example"), local, remote);

        assertEquals(ExitCodes.START_FAILED, result.exitStatus(), said.toString());
        assertEquals("host node-b.example cannot hold its 4 ranks", result.outcome());
        assertEquals(List.of("node-b.example=4"), remote.prepared.subList(2, remote.prepared.size()),
                "prepared: " + remote.prepared);
        assertTrue(remote.prepared.subList(0, 2).containsAll(List.of("node-a.example=2", "node-b.example=2")),
                "prepared: " + remote.prepared);
        assertEquals(List.of(), remote.started);
        assertEquals(List.of(), local.started);
        assertTrue(said.toString().contains("rank 0 moves from node-a.example to node-b.example"), said.toString());
    }

    @Test
    void anSshHostThatCanHoldTheMovedRanksIsPreparedForThemAndTheyStartThere() {
        Recorder remote = new Recorder("node-a.example");
        Recorder local = new Recorder(null);

        JobSupervisor.Result result = run(specs("node-a.example", "node-b.example"), local, remote);

        // The fake's start fails: the job ends as a start that failed on a host that may come back.
        assertEquals(ExitCodes.JOB_FAILED, result.exitStatus(), said.toString());
        assertEquals("node-b.example=2", remote.prepared.get(remote.prepared.size() - 1), "prepared: "
                + remote.prepared);
        assertEquals(List.of(0), remote.started);
    }

    @Test
    void thisHostIsJudgedAgainWhenMovedRanksMakeItsLocalRanksMoreThanItWasJudgedFor() {
        Recorder remote = new Recorder("node-a.example");
        Recorder local = new Recorder(null);

        JobSupervisor.Result result = run(specs("localhost", "node-a.example", "localhost", "node-a.example"),
                local, remote);

        assertEquals(ExitCodes.START_FAILED, result.exitStatus(), said.toString());
        assertEquals("host localhost cannot hold its 4 ranks", result.outcome());
        assertEquals(List.of("localhost=4"), local.prepared);
        // Ranks 1 and 3 moved here onto the lowest ports left from the base: judged by them too (ephemeral range).
        assertEquals(List.of(List.of(23000, 23002, 23001, 23003)), local.ports);
        assertEquals(List.of(), local.started);
        assertEquals(List.of(), remote.started);
    }

    @Test
    void localRanksAsPlannedAreNotJudgedAgainByTheSupervisor() {
        Recorder remote = new Recorder(null);
        Recorder local = new Recorder(null);

        run(specs("localhost", "localhost", "localhost", "node-b.example"), local, remote);

        // Three local ranks were judged by the launcher before the start (JobRunner); nothing moved here.
        assertEquals(List.of(), local.prepared);
        assertEquals(List.of("node-b.example=1"), remote.prepared);
    }
}
