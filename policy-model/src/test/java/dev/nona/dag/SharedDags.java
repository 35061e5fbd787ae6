package dev.nona.dag;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Finds {@code shared/dags} (data of another project, never copied) by walking up from the working directory. */
public final class SharedDags {
    private SharedDags() {
    }

    public static Path pipedream(String model) {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("shared/dags/pipedream").resolve(model + ".txt");
            if (Files.isRegularFile(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("shared/dags/pipedream/" + model + ".txt not found above " + Path.of("").toAbsolutePath());
    }

    public static ModelDag read(String model) {
        try {
            return PipeDreamImporter.read(pipedream(model));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
