package org.sperli.rankd.testjobs;

import org.sperli.Communicator;
import org.sperli.SperliJob;

/** A job rankd cannot make: its only constructor takes an argument. */
public final class NoDefaultConstructorTestJob implements SperliJob {
    private final String name;

    public NoDefaultConstructorTestJob(String name) {
        this.name = name;
    }

    @Override
    public void run(Communicator comm, String[] args) {
        System.out.println(name);
    }
}
