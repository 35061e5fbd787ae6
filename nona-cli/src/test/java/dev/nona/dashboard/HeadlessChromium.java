package dev.nona.dashboard;

import static org.assertj.core.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Debian's {@code chromium}, run headless to load a page, let its scripts run for a few seconds of virtual time, and
 * dump the resulting DOM or take a screenshot. Found on the PATH (or at {@code NONA_CHROMIUM}); without it a test
 * is skipped with a message, except on CI ({@code CI=true}), where it fails: {@code .ci/run} installs it.
 */
final class HeadlessChromium {
    private static final List<String> NAMES = List.of("chromium", "chromium-browser", "google-chrome");
    private static final int VIRTUAL_TIME_MILLIS = 4_000;
    private static final long TIMEOUT_SECONDS = 120;

    private final Path binary;
    private final Path profile;

    private HeadlessChromium(Path binary, Path profile) {
        this.binary = binary;
        this.profile = profile;
    }

    /** The browser, or the test is skipped (failed on CI) when there is none. */
    static HeadlessChromium require(Path profile) {
        Optional<Path> found = find();
        if (found.isEmpty()) {
            String explicit = System.getenv("NONA_CHROMIUM");
            String msg = "no headless Chromium: " + (explicit == null || explicit.isBlank()
                    ? "none of " + NAMES + " is on the PATH and NONA_CHROMIUM is not set"
                    : "NONA_CHROMIUM (" + explicit + ") is not an executable file")
                    + " (Debian: apt-get install -y chromium)";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                fail(msg + "; CI=true, so the browser test must run (.ci/run installs it)");
            }
            Assumptions.abort(msg);
        }
        return new HeadlessChromium(found.get(), profile);
    }

    private static Optional<Path> find() {
        String explicit = System.getenv("NONA_CHROMIUM");
        if (explicit != null && !explicit.isBlank()) {
            return Optional.of(Path.of(explicit)).filter(Files::isExecutable);
        }
        String path = System.getenv().getOrDefault("PATH", "");
        for (String name : NAMES) {
            for (String dir : path.split(File.pathSeparator)) {
                Path candidate = Path.of(dir, name);
                if (!dir.isEmpty() && Files.isExecutable(candidate)) {
                    return Optional.of(candidate);
                }
            }
        }
        return Optional.empty();
    }

    /** The page's DOM after its scripts ran. */
    String dumpDom(String url) throws IOException, InterruptedException {
        return run(url, List.of("--dump-dom"));
    }

    /** Saves a PNG of the page, {@code width} x {@code height} CSS pixels. */
    void screenshot(String url, Path png, int width, int height) throws IOException, InterruptedException {
        Files.createDirectories(png.toAbsolutePath().getParent());
        Files.deleteIfExists(png);
        run(url, List.of("--screenshot=" + png.toAbsolutePath(), "--window-size=" + width + "," + height,
                "--hide-scrollbars"));
        if (!Files.isRegularFile(png)) {
            fail("chromium wrote no screenshot to " + png);
        }
    }

    private String run(String url, List<String> what) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(binary.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-dev-shm-usage", "--no-first-run", "--user-data-dir=" + profile,
                "--virtual-time-budget=" + VIRTUAL_TIME_MILLIS));
        cmd.addAll(what);
        cmd.add(url);
        Path log = Files.createTempFile(profile.getParent(), "chromium-", ".log");
        Path out = Files.createTempFile(profile.getParent(), "chromium-", ".out");
        Process p = new ProcessBuilder(cmd).redirectError(log.toFile()).redirectOutput(out.toFile()).start();
        if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("chromium did not finish within " + TIMEOUT_SECONDS + " s: " + cmd);
        }
        if (p.exitValue() != 0) {
            fail("chromium exited with " + p.exitValue() + ": " + cmd + "\n" + Files.readString(log));
        }
        return Files.readString(out, StandardCharsets.UTF_8);
    }
}
