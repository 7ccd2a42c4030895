package org.sperli.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The shape of the main code, checked on its class files (all modules: this module's test class path holds them):
 * no import circle between packages, every package on its floor importing only its floor and below (drawn in
 * docs/architecture.md), and the job API module importing nothing but the JDK.
 */
class ArchitectureTest {
    /**
     * The layers of the main code, lowest first: a package imports only packages on its own floor or below (and no
     * circle, which {@link #noPackageImportsAPackageThatImportsItBack} checks on a floor). {@code docs/architecture.md}
     * draws them: {@code scripts/architecture-diagram} reads this list, and {@link ArchitectureDiagramTest} keeps the
     * drawing in the document equal to its output.
     *
     * <p>The job API (floors 0 to 2) is the bottom; the protocol packages (3 to 5) are the bottom of {@code common},
     * below even the crypto, so that the wire format reads without the checkpoint files, keys or runtime.
     */
    static final List<List<String>> FLOORS = List.of(
            List.of("org.sperli"),
            List.of("org.sperli.collective"),
            List.of("org.sperli.array"),
            List.of("org.sperli.protocol"),
            List.of("org.sperli.protocol.payload"),
            List.of("org.sperli.protocol.frame"),
            List.of("org.sperli.crypto", "org.sperli.jvm", "org.sperli.trace"),
            List.of("org.sperli.jobspec", "org.sperli.checkpoint"),
            List.of("org.sperli.checkpoint.inspect", "org.sperli.identity", "org.sperli.control"),
            List.of("org.sperli.transport"),
            List.of("org.sperli.runtime"),
            List.of("org.sperli.rankd.job", "org.sperli.rankd.agent"),
            List.of("org.sperli.rankd"),
            List.of("org.sperli.launcher.exit"),
            List.of("org.sperli.launcher.report", "org.sperli.launcher.demo"),
            List.of("org.sperli.launcher.job"),
            List.of("org.sperli.launcher.ssh", "org.sperli.launcher.slurm"),
            List.of("org.sperli.launcher.command"),
            List.of("org.sperli.launcher"));

    /** The packages of the sperli-api module, which a job compiles against alone. */
    private static final Set<String> API_PACKAGES = Set.of("org.sperli", "org.sperli.array", "org.sperli.collective");

    /** The protocol: the frame, the payload layouts and what they share. */
    private static final Set<String> PROTOCOL_PACKAGES = Set.of("org.sperli.protocol", "org.sperli.protocol.frame",
            "org.sperli.protocol.payload");

    /** All the protocol uses of SPERLI outside itself: the job API's codes, which its refusals carry. */
    private static final Set<String> PROTOCOL_USES_OF_THE_API = Set.of("org.sperli.ErrorCode",
            "org.sperli.SperliException");

    private static JavaClasses classes;

    @BeforeAll
    static void importMainClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                // common's test helpers reach these tests as a jar, which DO_NOT_INCLUDE_TESTS does not recognise.
                .withImportOption(location -> !location.contains("-tests.jar"))
                .importPackages("org.sperli");
    }

    @Test
    void theMainCodeOfEveryModuleIsThere() {
        for (String probe : List.of("org.sperli.Communicator", "org.sperli.runtime.RankRuntime",
                "org.sperli.rankd.Main", "org.sperli.launcher.Main")) {
            assertTrue(classes.contain(probe), probe + " was not imported: the test would check nothing");
        }
    }

    @Test
    void noPackageImportsAPackageThatImportsItBack() {
        Map<String, Set<String>> imports = packageImports();
        List<String> circles = new ArrayList<>();
        for (String from : imports.keySet()) {
            for (String to : imports.get(from)) {
                if (from.compareTo(to) < 0 && reaches(imports, to, from)) {
                    circles.add(from + " <-> " + to);
                }
            }
        }
        assertEquals(List.of(), circles, "packages in an import circle (directly or through others)");
    }

    @Test
    void theJobApiImportsOnlyItselfAndTheJdk() {
        List<String> outside = new ArrayList<>();
        for (JavaClass c : classes) {
            if (!API_PACKAGES.contains(c.getPackageName())) {
                continue;
            }
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                String target = d.getTargetClass().getPackageName();
                if (!target.startsWith("java.") && !API_PACKAGES.contains(target)
                        && !d.getTargetClass().isPrimitive() && !d.getTargetClass().isArray()) {
                    outside.add(d.getDescription());
                }
            }
        }
        assertEquals(List.of(), outside, "the job API reaches outside itself and the JDK");
    }

    @Test
    void theJobApiLayersAreCollectiveOnTheVocabularyAndArrayOnBoth() {
        Map<String, Set<String>> imports = packageImports();
        assertEquals(Set.of(), imports.getOrDefault("org.sperli", Set.of()), "org.sperli imports another package");
        assertEquals(Set.of("org.sperli"), imports.getOrDefault("org.sperli.collective", Set.of()));
    }

    /**
     * The protocol packages are the bottom of common: they use the JDK, the job API's ErrorCode and
     * SperliException, and each other; not the checkpoint files (whose layout lengths they need are in
     * {@code org.sperli.protocol.CommitLayout}), not the crypto, not Netty.
     */
    @Test
    void theProtocolUsesOnlyTheJdkTheApisCodesAndItself() {
        Set<String> protocolPackages = new TreeSet<>();
        List<String> outside = new ArrayList<>();
        for (JavaClass c : classes) {
            if (!c.getPackageName().startsWith("org.sperli.protocol")) {
                continue;
            }
            protocolPackages.add(c.getPackageName());
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                JavaClass target = d.getTargetClass().getBaseComponentType();
                String name = target.getName().replaceFirst("\\$.*", "");
                if (!target.isPrimitive() && !target.getPackageName().startsWith("java.")
                        && !PROTOCOL_PACKAGES.contains(target.getPackageName())
                        && !PROTOCOL_USES_OF_THE_API.contains(name)) {
                    outside.add(d.getDescription());
                }
            }
        }
        assertEquals(new TreeSet<>(PROTOCOL_PACKAGES), protocolPackages, "the protocol's packages changed");
        assertEquals(List.of(), outside, "the protocol reaches outside itself, the JDK and the API's codes");
    }

    @Test
    void everyPackageImportsOnlyItsFloorAndBelow() {
        Map<String, Integer> floorOf = new TreeMap<>();
        for (int floor = 0; floor < FLOORS.size(); floor++) {
            for (String p : FLOORS.get(floor)) {
                floorOf.put(p, floor);
            }
        }
        List<String> wrong = new ArrayList<>();
        for (Map.Entry<String, Set<String>> e : packageImports().entrySet()) {
            String from = e.getKey();
            Integer floor = floorOf.get(from);
            if (floor == null) {
                wrong.add(from + " is on no floor: add it to FLOORS and redraw docs/architecture.md"
                        + " (scripts/architecture-diagram --write)");
                continue;
            }
            for (String to : e.getValue()) {
                if (floorOf.getOrDefault(to, Integer.MAX_VALUE) > floor) {
                    wrong.add(from + " (floor " + floor + ") imports " + to + " (floor " + floorOf.get(to) + ")");
                }
            }
        }
        assertEquals(List.of(), wrong);
    }

    /** For every package, the other org.sperli packages its classes use. */
    private static Map<String, Set<String>> packageImports() {
        Map<String, Set<String>> imports = new TreeMap<>();
        for (JavaClass c : classes) {
            Set<String> to = imports.computeIfAbsent(c.getPackageName(), k -> new TreeSet<>());
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                String target = d.getTargetClass().getPackageName();
                if (target.startsWith("org.sperli") && !target.equals(c.getPackageName())) {
                    to.add(target);
                }
            }
        }
        return imports;
    }

    private static boolean reaches(Map<String, Set<String>> imports, String from, String goal) {
        Set<String> seen = new TreeSet<>();
        List<String> todo = new ArrayList<>(List.of(from));
        while (!todo.isEmpty()) {
            String p = todo.remove(todo.size() - 1);
            if (p.equals(goal)) {
                return true;
            }
            if (seen.add(p)) {
                todo.addAll(imports.getOrDefault(p, Set.of()));
            }
        }
        return false;
    }
}
