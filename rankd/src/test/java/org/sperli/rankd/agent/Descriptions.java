package org.sperli.rankd.agent;

import java.util.ArrayList;
import java.util.List;
import org.sperli.jobspec.DescriptionLine;
import org.sperli.jobspec.EncodedHostList;
import org.sperli.jobspec.JobDescription;
import org.sperli.jobspec.JobSpecSamples;

/**
 * Description lines for START frames: structurally valid (the agent parses them as a rank does) with the sample
 * values of {@link JobSpecSamples}, for a job whose host list the test chooses. The agent checks no certificate, so
 * the sample PEM texts do; the shell ranks of the tests read the line and ignore it.
 */
final class Descriptions {
    private Descriptions() {
    }

    /** The line of {@code rank}, {@code incarnation} in a job whose rank i runs on {@code hosts[i]}. */
    static DescriptionLine line(int rank, long incarnation, String... hosts) {
        List<JobDescription.HostEntry> entries = new ArrayList<>();
        for (int i = 0; i < hosts.length; i++) {
            entries.add(new JobDescription.HostEntry(hosts[i], 7000 + i));
        }
        int size = hosts.length;
        JobDescription d = new JobDescription(JobDescription.FORMAT_VERSION, JobSpecSamples.JOB, size, rank,
                incarnation, 5000, entries, JobSpecSamples.CA_PEM, JobSpecSamples.CERT_PEM, JobSpecSamples.KEY_PEM,
                JobSpecSamples.token(rank, size, incarnation, hosts[rank]).toBytes(),
                rank == 0 ? JobSpecSamples.signingKey() : new byte[0], JobSpecSamples.publicKey());
        return d.toLine(EncodedHostList.of(entries));
    }

    /** The line of {@code rank}, incarnation 1, in a job of two ranks on localhost. */
    static DescriptionLine local(int rank) {
        return line(rank, 1, "localhost", "localhost");
    }
}
