package org.sperli.rankd.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The command line of an agent under Slurm: one for every node of the step, each agent taking its own node's host by
 * SLURMD_NODENAME; anything it cannot use is refused with the reason.
 */
class AgentCallHomeArgumentsTest {
    private static final String SHA = "ab".repeat(32);
    private static final String NONCE = "0f".repeat(32);

    private static List<String> line(String... extra) {
        List<String> args = new java.util.ArrayList<>(List.of("--host-agent", "--node", "n1=10.0.0.1", "--node",
                "n2=10.0.0.2", "--call-home-port", "4000", "--launcher-sha256", SHA, "--nonce", NONCE));
        args.addAll(List.of(extra));
        return args;
    }

    @Test
    void eachAgentTakesTheHostOfItsOwnNode() {
        AgentArguments a = AgentArguments.parse(line(), Map.of("SLURMD_NODENAME", "n2"));
        assertEquals(Set.of("10.0.0.2"), a.hosts());
        assertEquals(new CallHomeTarget(4000, SHA, NONCE, "n2"), a.callHomeOrNull());
    }

    @Test
    void aNodeWithoutEntryIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> AgentArguments.parse(line(), Map.of("SLURMD_NODENAME", "n9")));
        assertTrue(e.getMessage().contains("'n9' is not one of the --node entries"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> AgentArguments.parse(line(), Map.of()));
        assertTrue(e.getMessage().contains("SLURMD_NODENAME is not set"), e.getMessage());
    }

    @Test
    void aFingerprintOrNonceThatIsNot64LowerCaseHexDigitsIsRefused() {
        List<String> args = line();
        args.set(args.indexOf(SHA), SHA.toUpperCase(java.util.Locale.ROOT));
        assertThrows(IllegalArgumentException.class, () -> AgentArguments.parse(args, Map.of("SLURMD_NODENAME",
                "n1")));
        List<String> shortNonce = line();
        shortNonce.set(shortNonce.indexOf(NONCE), "0f");
        assertThrows(IllegalArgumentException.class, () -> AgentArguments.parse(shortNonce,
                Map.of("SLURMD_NODENAME", "n1")));
    }

    @Test
    void hostAndNodeExcludeEachOtherAndAnOptionComesOnce() {
        assertThrows(IllegalArgumentException.class, () -> AgentArguments.parse(line("--host", "x"),
                Map.of("SLURMD_NODENAME", "n1")));
        assertThrows(IllegalArgumentException.class, () -> AgentArguments.parse(line("--nonce", NONCE),
                Map.of("SLURMD_NODENAME", "n1")));
        assertThrows(IllegalArgumentException.class, () -> AgentArguments.parse(List.of("--host-agent", "--node",
                "n1=a"), Map.of("SLURMD_NODENAME", "n1")));
    }
}
