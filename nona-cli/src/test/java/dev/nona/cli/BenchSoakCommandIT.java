package dev.nona.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code nona bench soak}, briefly: the closed loop (real broker, {@code bin/nona run} as a child process with a
 * state directory, the executor twin) at 100 requests/s for three 10 s "minutes". Checks the JSON's shape, that every
 * request was decided and none dead-lettered, and that each minute has its heap and checkpoint figures; the
 * figures and slopes themselves are the benchmark's business, not the test's.
 */
final class BenchSoakCommandIT {
    private static final List<String> FIELDS = List.of("rate", "minutes", "intervalSeconds", "warmupMinutes", "sent",
            "decided", "undecided", "duplicates", "deadLetters", "p50Millis", "p99Millis", "trend", "withinGoal",
            "perMinute", "twin", "workDir");
    private static final List<String> MINUTE_FIELDS = List.of("minute", "sent", "decided", "p50Millis", "p99Millis",
            "p99AllMillis", "probeExcluded", "kafkaP99Millis", "heapAfterGcBytes", "heapFrom", "fullGcMillis", "checkpointBytes", "checkpoint",
            "loadAverage", "twinBacklog");

    @Test
    void shortRun_everyRequestDecided_eachMinuteHasHeapAndCheckpoint_jsonHasEveryField(@TempDir Path dir)
            throws Exception {
        TestingCli cli = new TestingCli();
        int exit = cli.run("bench", "soak", "--rate", "100", "--minutes", "3", "--interval-seconds", "10",
                "--warmup-minutes", "1", "--servers", "4", "--work-dir", dir.toString(),
                "--set", "checkpoint.interval=2s", "--set", "rates.window=5s");
        assertThat(exit).as("exit code; stderr: %s", cli.err()).isZero();
        JsonNode out = new ObjectMapper().readTree(cli.out());
        assertThat(FIELDS).allSatisfy(f -> assertThat(out.has(f)).as("field %s in %s", f, out).isTrue());
        assertThat(out.path("sent").asLong()).isEqualTo(3000);
        assertThat(out.path("decided").asLong()).as("every request decided: %s", out).isEqualTo(3000);
        assertThat(out.path("deadLetters").asLong()).as("nothing malformed was sent").isZero();
        assertThat(out.path("perMinute")).hasSize(3);
        for (JsonNode m : out.path("perMinute")) {
            assertThat(MINUTE_FIELDS).allSatisfy(f -> assertThat(m.has(f)).as("field %s in %s", f, m).isTrue());
            assertThat(m.path("sent").asLong()).isEqualTo(1000);
            assertThat(m.path("decided").asLong()).isEqualTo(1000);
            assertThat(m.path("heapFrom").asText()).as("minute %s", m).isIn("full-gc", "lowest-gc");
            assertThat(m.path("heapAfterGcBytes").asLong()).as("minute %s", m).isPositive();
            assertThat(m.path("checkpointBytes").asLong()).as("minute %s", m).isPositive();
            assertThat(m.path("checkpoint").asText()).startsWith("chk-");
        }
        for (String series : List.of("heapAfterGcBytes", "checkpointBytes", "p99Millis")) {
            JsonNode t = out.path("trend").path(series);
            // the minutes after the warm-up with a figure (a busy machine's probe may cover a whole 10 s "minute")
            int withFigure = 0;
            for (int m = 1; m < 3; m++) {
                withFigure += out.path("perMinute").get(m).path(series).isNull() ? 0 : 1;
            }
            assertThat(t.path("minutesFitted").asInt()).as("%s: the minutes after the warm-up", series)
                    .isEqualTo(withFigure);
            assertThat(t.has("growthOverRun")).isTrue();
        }
        assertThat(out.path("trend").path("heapAfterGcBytes").path("minutesFitted").asInt()).isEqualTo(2);
        assertThat(out.path("trend").path("checkpointBytes").path("minutesFitted").asInt()).isEqualTo(2);
        assertThat(out.path("twin").path("okOutcomes").asLong()).as("the twin executed the decisions")
                .isGreaterThanOrEqualTo(3000);
        assertThat(dir.resolve("controller-gc.log")).exists();
        assertThat(cli.err()).contains("soak: minute 3/3").contains("nona bench soak: 3 x 10 s at 100 requests/s");
    }

    @Test
    void warmupAsLongAsTheRun_isAOneLineErrorNamingTheFlags() {
        TestingCli cli = new TestingCli();
        assertThat(cli.run("bench", "soak", "--minutes", "2", "--warmup-minutes", "2")).isNotZero();
        assertThat(cli.err().trim()).contains("--warmup-minutes (2) must be >= 0 and < --minutes (2)")
                .doesNotContain("\n");
    }
}
