package dev.nona.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class JvmClasspathTest {

    @Test
    void current_expandsAManifestOnlyJar_intoItsClassPathEntries(@TempDir Path tmp) throws Exception {
        Path a = Files.createFile(tmp.resolve("kafka_2.13-4.2.0.jar"));
        Path b = Files.createDirectories(tmp.resolve("classes"));
        Path booter = tmp.resolve("surefirebooter.jar");
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().put(Attributes.Name.CLASS_PATH, a.toUri() + " " + b.toUri());
        try (OutputStream out = Files.newOutputStream(booter); JarOutputStream jar = new JarOutputStream(out, m)) {
            jar.flush();
        }
        String saved = System.getProperty("java.class.path");
        try {
            System.setProperty("java.class.path", booter.toString());
            JvmClasspath cp = JvmClasspath.current();
            assertThat(cp.entries()).containsExactly(a, b);
            assertThat(cp.containsJar("kafka_2.13-")).isTrue();
            assertThat(cp.asArgument()).isEqualTo(a + File.pathSeparator + b);
        } finally {
            System.setProperty("java.class.path", saved);
        }
    }

    @Test
    void filter_keepsOrder_andAnEmptyResultIsAnError() {
        JvmClasspath cp = new JvmClasspath(List.of(Path.of("/x/a.jar"), Path.of("/x/b.jar"), Path.of("/x/c.jar")));
        assertThat(cp.filter(p -> !p.toString().endsWith("b.jar")).entries())
                .containsExactly(Path.of("/x/a.jar"), Path.of("/x/c.jar"));
        assertThatThrownBy(() -> cp.filter(p -> false)).hasMessageContaining("classpath entries must not be empty");
    }
}
