package dev.nona.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** The shaded job jar that the tests submit: copied by the build (see the pom), or found in flink-jobs/target. */
final class JobJar {

    private JobJar() {}

    static Path path() {
        String configured = System.getProperty("nona.job.jar");
        if (configured != null && Files.isRegularFile(Path.of(configured))) {
            return Path.of(configured);
        }
        Path target = repoRoot().resolve("flink-jobs/target");
        try (Stream<Path> files = Files.list(target)) {
            return files.filter(p -> p.getFileName().toString().matches("flink-jobs-.*-job\\.jar"))
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException("no job jar in " + target
                            + "; run mvn -B -DskipTests package first"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Path repoRoot() {
        String configured = System.getProperty("nona.repo.root");
        if (configured != null) {
            return Path.of(configured).toAbsolutePath().normalize();
        }
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve("docker-compose.yml")) && !Files.exists(dir.resolve(".ci"))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new IllegalStateException("cannot find the repository root above " + Path.of("").toAbsolutePath());
        }
        return dir;
    }
}
