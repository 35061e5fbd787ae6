package dev.nona.sim.modelaware;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.nona.modelaware.ColdStartAmortization;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Section 6.3: the gap between random and colocation shrinks as (cold starts - 1) T_CS / R. */
final class BreakEvenExperimentTest {
    @Test
    void gap_isTheExtraColdStartsSpreadOverTheRequests_andFallsBelowEpsilonNear2100() {
        List<BreakEvenExperiment.Row> rows = BreakEvenExperiment.thesis().run(List.of(10, 1000, 2100, 5000));

        for (BreakEvenExperiment.Row r : rows) {
            assertThat(r.colocationMeanSeconds()).isCloseTo((3.0 + r.requests()) / r.requests(), within(1e-9));
            assertThat(r.gapSeconds()).isCloseTo((r.randomColdStarts() - 1) * 3.0 / r.requests(), within(1e-9));
            assertThat(r.gapSeconds()).isLessThanOrEqualTo(r.worstCaseBoundSeconds() + 1e-12);
        }
        assertThat(rows.get(0).gapSeconds()).isGreaterThan(1.0); // 10 requests: several extra cold starts
        assertThat(rows.get(1).gapSeconds()).isGreaterThan(BreakEvenExperiment.EPSILON);
        // By 2100 requests random has touched every machine: 7 extra loads, 21 s over 2100 = exactly epsilon.
        assertThat(rows.get(2).randomColdStarts()).isEqualTo(8.0);
        assertThat(rows.get(2).gapSeconds()).isCloseTo(0.01, within(1e-9));
        assertThat(BreakEvenExperiment.measuredBreakEven(rows)).isEqualTo(5000);
        assertThat(ColdStartAmortization.breakEvenRequests(8, 3, 0.01)).isEqualTo(2100);
    }

    @Test
    void writeTo_writesCsvAndMarkdown(@TempDir Path dir) throws Exception {
        new BreakEvenExperiment(8, 3, 1, 1).writeTo(dir);
        assertThat(Files.readAllLines(dir.resolve("break-even.csv"))).hasSize(1 + BreakEvenExperiment.DEFAULT_REQUESTS.size());
        assertThat(Files.readString(dir.resolve("break-even.md"))).contains("Measured break-even").contains("2100");
    }
}
