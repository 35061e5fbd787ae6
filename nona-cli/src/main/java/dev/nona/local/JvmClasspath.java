package dev.nona.local;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * The classpath of the running JVM as a list of files, for starting child JVMs (a Kafka broker, Flink
 * processes) from the artifacts Maven already resolved.
 *
 * <p>{@code bin/nona} runs with {@code target/lib/*} (the launcher expands the wildcard into {@code
 * java.class.path}); Maven's surefire/failsafe may run tests from a single "manifest-only" jar whose
 * {@code Class-Path} attribute lists the real entries: both are handled. Immutable and thread safe.
 */
public record JvmClasspath(List<Path> entries) {

    public JvmClasspath {
        entries = List.copyOf(entries);
        if (entries.isEmpty()) {
            throw new IllegalArgumentException("classpath entries must not be empty");
        }
    }

    /** The classpath of this JVM, with a manifest-only jar expanded. */
    public static JvmClasspath current() {
        String raw = System.getProperty("java.class.path", "");
        List<Path> out = new ArrayList<>();
        for (String part : raw.split(File.pathSeparator)) {
            if (part.isBlank()) {
                continue;
            }
            Path p = Path.of(part).toAbsolutePath();
            List<Path> fromManifest = manifestClassPath(p);
            if (fromManifest.isEmpty()) {
                out.add(p);
            } else {
                out.addAll(fromManifest);
            }
        }
        return new JvmClasspath(out);
    }

    /** A classpath in {@code -cp} form (entries separated by the platform's path separator), e.g. as written by
     *  {@code mvn dependency:build-classpath}. */
    public static JvmClasspath parse(String classpath) {
        List<Path> out = new ArrayList<>();
        for (String part : classpath.strip().split(File.pathSeparator)) {
            if (!part.isBlank()) {
                out.add(Path.of(part).toAbsolutePath());
            }
        }
        return new JvmClasspath(out);
    }

    /** The entries accepted by {@code keep}, in order. */
    public JvmClasspath filter(Predicate<Path> keep) {
        return new JvmClasspath(entries.stream().filter(keep).toList());
    }

    /** True when some entry's file name starts with {@code prefix} (e.g. {@code "kafka_2.13-"}). */
    public boolean containsJar(String prefix) {
        return entries.stream().anyMatch(p -> p.getFileName().toString().startsWith(prefix));
    }

    /** The {@code -cp} argument. */
    public String asArgument() {
        return String.join(File.pathSeparator, entries.stream().map(Path::toString).toList());
    }

    private static List<Path> manifestClassPath(Path jar) {
        if (!jar.toString().endsWith(".jar") || !Files.isRegularFile(jar)) {
            return List.of();
        }
        try (JarFile file = new JarFile(jar.toFile())) {
            Manifest manifest = file.getManifest();
            String cp = manifest == null ? null : manifest.getMainAttributes().getValue("Class-Path");
            if (cp == null || cp.isBlank()) {
                return List.of();
            }
            List<Path> out = new ArrayList<>();
            for (String item : cp.trim().split("\\s+")) {
                out.add(item.startsWith("file:") ? Path.of(URI.create(item)) : jar.resolveSibling(item).normalize());
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read manifest of classpath entry " + jar, e);
        }
    }
}
