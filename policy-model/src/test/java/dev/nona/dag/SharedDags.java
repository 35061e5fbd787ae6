package dev.nona.dag;

import dev.nona.zoo.ModelZoo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;

/**
 * Finds PipeDream's profiler graphs (data of another project, never copied into this repository) for the
 * tests that need the real files.
 *
 * <p>Where: the folder named by the environment variable {@code NONA_SHARED_DAGS} (or the system property
 * {@code nona.shared.dags}) if set, else {@code shared/dags/pipedream} in the working directory or any
 * folder above it (a checkout with {@code ../shared} beside it). In that folder a model is {@code
 * <model>.txt}, or {@code <model>/graph.txt} as in PipeDream's own {@code profiles/} folders.
 *
 * <p>When a graph is missing, the test is skipped (a JUnit assumption) with a message that names the folders
 * looked at, unless {@code NONA_REQUIRE_SHARED_DAGS=true} (or {@code -Dnona.require.shared.dags=true}): then
 * it fails. CI sets that flag, so CI can never pass with these tests skipped.
 */
public final class SharedDags {
    public static final String DIR_VARIABLE = "NONA_SHARED_DAGS";
    public static final String REQUIRE_VARIABLE = "NONA_REQUIRE_SHARED_DAGS";

    private static final List<String> ZOO_CNNS = List.of("alexnet", "vgg16", "resnet18", "densenet121");

    private SharedDags() {
    }

    /** The graph file of {@code model}; skips (or, when required, fails) the calling test if it is missing. */
    public static Path pipedream(String model) {
        Optional<Path> found = find(model);
        if (found.isPresent()) {
            return found.get();
        }
        String message = "PipeDream profile '" + model + "' not found in " + searched()
                + "; set " + DIR_VARIABLE + " to a folder of PipeDream graph files (see README, 'PipeDream profiles')";
        if (required()) {
            throw new IllegalStateException(message + " (" + REQUIRE_VARIABLE + "=true makes this a failure)");
        }
        Assumptions.abort(message);
        throw new AssertionError("unreachable");
    }

    /**
     * The graph of {@code model} for tests of structure: the built-in zoo's for the four CNNs it generates
     * edge for edge as PipeDream's profiler wrote them (alexnet, vgg16, resnet18, densenet121; checked by {@code
     * ZooMatchesPipeDreamTest}), so those run without the files; PipeDream's file for the others.
     */
    public static ModelDag zooOrPipedream(String model) {
        return ZOO_CNNS.contains(model) ? ModelZoo.load(model) : read(model);
    }

    public static ModelDag read(String model) {
        try {
            return PipeDreamImporter.read(pipedream(model));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Optional<Path> find(String model) {
        for (Path dir : candidates()) {
            for (Path file : List.of(dir.resolve(model + ".txt"), dir.resolve(model).resolve("graph.txt"))) {
                if (Files.isRegularFile(file)) {
                    return Optional.of(file);
                }
            }
        }
        return Optional.empty();
    }

    private static List<Path> candidates() {
        String configured = setting("nona.shared.dags", DIR_VARIABLE);
        if (configured != null && !configured.isBlank()) {
            return List.of(Path.of(configured).toAbsolutePath());
        }
        List<Path> out = new ArrayList<>();
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            out.add(dir.resolve("shared/dags/pipedream"));
        }
        return out;
    }

    private static String searched() {
        String configured = setting("nona.shared.dags", DIR_VARIABLE);
        return configured != null && !configured.isBlank()
                ? DIR_VARIABLE + " (" + Path.of(configured).toAbsolutePath() + ")"
                : "shared/dags/pipedream above " + Path.of("").toAbsolutePath();
    }

    private static boolean required() {
        return Boolean.parseBoolean(setting("nona.require.shared.dags", REQUIRE_VARIABLE));
    }

    private static String setting(String property, String variable) {
        String p = System.getProperty(property);
        return p != null ? p : System.getenv(variable);
    }
}
