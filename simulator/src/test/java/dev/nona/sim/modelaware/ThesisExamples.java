package dev.nona.sim.modelaware;

import java.nio.file.Files;
import java.nio.file.Path;

/** Finds the shipped {@code examples/thesis} workloads by walking up from the working directory. */
final class ThesisExamples {
    private ThesisExamples() {}

    static ThesisWorkload read(String name) {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path f = dir.resolve("examples/thesis").resolve(name);
            if (Files.isRegularFile(f)) {
                return ThesisWorkloadReader.read(f);
            }
        }
        throw new IllegalStateException("examples/thesis/" + name + " not found above " + Path.of("").toAbsolutePath());
    }

    static double makespan(ThesisWorkload w, String policy, long seed) {
        return new ModelAwareSimulator(w, policy, seed).run().makespanSeconds();
    }
}
