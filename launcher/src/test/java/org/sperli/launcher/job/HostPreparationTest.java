package org.sperli.launcher.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.sperli.jobspec.DescriptionLine;
import org.sperli.jobspec.JobDescription.HostEntry;
import org.sperli.launcher.exit.LauncherException;

/** The SSH hosts of a job are made ready at once, and what one host's failure means for the others. */
class HostPreparationTest {
    private static final long BOUND_S = 10;

    /** A starter whose {@code prepare} runs {@code body}; it starts no rank. */
    private interface Prepare {
        void run(String host) throws HostUnreachableException, InterruptedException;
    }

    private static RankStarter starter(Prepare body) {
        return new RankStarter() {
            @Override
            public void prepare(String host, List<Integer> ports) throws HostUnreachableException {
                try {
                    body.run(host);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new HostUnreachableException(host, "interrupted", e);
                }
            }

            @Override
            public RankProcess start(int rank, long incarnation, HostEntry entry, DescriptionLine line) {
                throw new AssertionError("preparing a host starts no rank");
            }
        };
    }

    /** {@code hosts} in their order, each to run one rank. */
    private static Map<String, List<Integer>> oneRankEach(String... hosts) {
        Map<String, List<Integer>> ranks = new LinkedHashMap<>();
        for (String host : hosts) {
            ranks.put(host, List.of(23000));
        }
        return ranks;
    }

    @Test
    void eachHostIsPreparedForItsOwnRanksPorts() {
        Map<String, List<Integer>> seen = new ConcurrentHashMap<>();
        RankStarter records = new RankStarter() {
            @Override
            public void prepare(String host, List<Integer> ports) {
                seen.put(host, ports);
            }

            @Override
            public RankProcess start(int rank, long incarnation, HostEntry entry, DescriptionLine line) {
                throw new AssertionError("preparing a host starts no rank");
            }
        };
        Map<String, List<Integer>> planned = new LinkedHashMap<>();
        planned.put("a", List.of(23000, 23001, 23002));
        planned.put("b", List.of(23000));
        planned.put("c", List.of(24000, 23005));

        assertEquals(Map.of(), HostPreparation.prepare(records, planned));
        assertEquals(planned, seen);
    }

    @Test
    void everyHostIsPreparedAtOnceNotOneAfterAnother() {
        // Each preparation waits until all three have begun: one after another, the first would wait in vain.
        CountDownLatch begun = new CountDownLatch(3);
        RankStarter waitsForTheOthers = starter(host -> {
            begun.countDown();
            if (!begun.await(BOUND_S, TimeUnit.SECONDS)) {
                throw new HostUnreachableException(host, "the other hosts were not being prepared", null);
            }
        });

        assertEquals(Map.of(), HostPreparation.prepare(waitsForTheOthers, oneRankEach("a", "b", "c")));
    }

    @Test
    void theHostsThatCannotBeReachedComeBackInTheOrderGivenWithWhy() {
        RankStarter bAndDAreDown = starter(host -> {
            if (host.equals("d")) {
                throw new HostUnreachableException(host, "no route", null);
            }
            if (host.equals("b")) {
                Thread.sleep(200);
                throw new HostUnreachableException(host, "timed out", null);
            }
        });

        Map<String, HostUnreachableException> lost =
                HostPreparation.prepare(bAndDAreDown, oneRankEach("a", "b", "c", "d"));

        assertEquals(List.of("b", "d"), List.copyOf(lost.keySet()));
        assertTrue(lost.get("b").getMessage().contains("timed out"), lost.get("b").getMessage());
    }

    @Test
    void aHostThatRefusesTheJobEndsThePreparationAtOnceAndTheOthersAreInterrupted() throws Exception {
        LauncherException refusal = LauncherException.startFailed("host a has no usable Java", null);
        CountDownLatch interrupted = new CountDownLatch(1);
        RankStarter aRefusesBHangs = starter(host -> {
            if (host.equals("a")) {
                throw refusal;
            }
            try {
                Thread.sleep(TimeUnit.SECONDS.toMillis(10 * BOUND_S));
            } catch (InterruptedException e) {
                interrupted.countDown();
                throw e;
            }
        });

        long started = System.nanoTime();
        LauncherException thrown = assertThrows(LauncherException.class,
                () -> HostPreparation.prepare(aRefusesBHangs, oneRankEach("a", "b")));

        assertSame(refusal, thrown);
        assertTrue(System.nanoTime() - started < TimeUnit.SECONDS.toNanos(BOUND_S), "waited for the hanging host");
        assertTrue(interrupted.await(BOUND_S, TimeUnit.SECONDS), "the hanging host's preparation was not ended");
    }

    @Test
    void oneHostIsPreparedOnTheCallersThread() {
        Thread caller = Thread.currentThread();
        RankStarter here = starter(host -> {
            if (Thread.currentThread() != caller) {
                throw new HostUnreachableException(host, "prepared on another thread", null);
            }
        });

        assertEquals(Set.of(), HostPreparation.prepare(here, oneRankEach("only")).keySet());
    }
}
