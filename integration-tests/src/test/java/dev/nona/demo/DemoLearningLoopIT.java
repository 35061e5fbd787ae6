package dev.nona.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The learning loop on the demo's machinery: a real KRaft broker (child process), the controller on a MiniCluster
 * with the outcome path on, and the executor twin with server s-1 computing at half the speed it reports. The
 * loop under test: decisions → twin → outcomes → a {@code CALIBRATION} event with s-1's effective speed → a
 * re-optimisation caused by calibration → the gate's verdict on its table. (Whether that table differs from the
 * current one depends on the load: the optimiser sees the servers' mean speed, and at the demo's first-half load
 * every model is kept whole at either speed, so the verdict may be a rejection; the learned speed then acts
 * through the placement operator's mapping.)
 */
final class DemoLearningLoopIT {

    private static final double SLOW = 2.0;
    /** The cause the control loop gives for s-1 learned at half its 10^12 ops/s (within 2%). */
    private static final Pattern CALIBRATED_S1 =
            Pattern.compile("calibration: server s-1 runs at (4\\.9[0-9]{2}|5\\.0[0-9]{2})e\\+11 ops/s");

    @Test
    void slowedServer_isLearnedFromOutcomes_andTheControllerReoptimisesForIt() throws Exception {
        DemoScenario scenario = DemoScenario.standard(Duration.ofSeconds(12));
        ByteArrayOutputStream view = new ByteArrayOutputStream();
        DemoSummary summary = new Demo(scenario, Demo.twinOptions(scenario, Map.of("s-1", SLOW), Map.of()),
                "spark-fair", new PrintStream(view, true, StandardCharsets.UTF_8), 0).run();
        String context = "view:\n" + view.toString(StandardCharsets.UTF_8) + "\nsummary: " + summary;

        // every decision executed by the twin and its outcome read back
        assertThat(summary.exactlyOnce()).as(context).isTrue();
        assertThat(summary.outcomesConsumed()).as(context).isEqualTo(summary.requestsPublished());
        assertThat(summary.missingOutcomes()).as(context).isZero();

        // CALIBRATION: s-1's effective speed is what the twin runs it at, the others' what they report
        double nominal = scenario.opsPerSecond();
        assertThat(summary.learnedSpeeds()).as(context).containsKeys("s-0", "s-1", "s-2", "s-3");
        assertThat(summary.learnedSpeeds().get("s-1").lastOpsPerSecond()).as(context)
                .isBetween(0.9 * nominal / SLOW, 1.1 * nominal / SLOW);
        for (String server : List.of("s-0", "s-2", "s-3")) {
            assertThat(summary.learnedSpeeds().get(server).lastOpsPerSecond()).as(context + "\n" + server)
                    .isBetween(0.9 * nominal, 1.1 * nominal);
        }

        // a re-optimisation caused by calibration, naming s-1, after the first table, and a verdict for that cause
        List<DemoSummary.ControlStep> steps = summary.controlSteps();
        int firstTable = -1;
        int started = -1;
        for (int i = 0; i < steps.size() && started < 0; i++) {
            DemoSummary.ControlStep step = steps.get(i);
            if (firstTable < 0 && step.type().equals("TABLE_PUBLISHED")) {
                firstTable = i;
            } else if (firstTable >= 0 && step.type().equals("REOPTIMIZATION_STARTED")
                    && CALIBRATED_S1.matcher(step.cause()).find()) {
                started = i;
            }
        }
        assertThat(started).as("a re-optimisation caused by s-1's calibration; " + context).isPositive();
        String cause = steps.get(started).cause();
        assertThat(steps.subList(started + 1, steps.size())).as(context)
                .anySatisfy(step -> {
                    assertThat(step.type()).isIn("TABLE_PUBLISHED", "TABLE_REJECTED");
                    assertThat(step.cause()).isEqualTo(cause);
                });
    }
}
