package org.sperli.rankd.testjobs;

import java.io.IOException;
import org.sperli.Communicator;
import org.sperli.SperliJob;

/** Reads one byte of its standard input and prints what the read returned. */
public final class StdinTestJob implements SperliJob {
    @Override
    public void run(Communicator comm, String[] args) {
        try {
            System.out.println("stdin read returned " + System.in.read());
        } catch (IOException e) {
            System.out.println("stdin read failed: " + e);
        }
    }
}
