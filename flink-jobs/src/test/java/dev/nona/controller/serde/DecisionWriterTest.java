package dev.nona.controller.serde;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.topics.record.DecisionExplanation;
import dev.nona.topics.record.DecisionPart;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.StageAssignment;
import dev.nona.topics.record.StageAssignments;
import dev.nona.topics.serde.JsonSerde;
import dev.nona.topics.serde.Parsed;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

final class DecisionWriterTest {
    private final JsonSerde<PlacementDecision> serde = new JsonSerde<>(PlacementDecision.class, Integer.MAX_VALUE);

    private void assertSameAsSerde(DecisionWriter writer, PlacementDecision d) {
        byte[] fast = writer.write(d);
        assertThat(new String(fast, StandardCharsets.UTF_8)).isEqualTo(new String(serde.serialize(d), StandardCharsets.UTF_8));
        Parsed<PlacementDecision> parsed = serde.parse(fast);
        assertThat(parsed.ok()).as(() -> parsed.ok() ? "" : parsed.reason()).isTrue();
        assertThat(parsed.value()).isEqualTo(d);
    }

    @Test
    void contract_typicalDecision_sameBytesAsTopicSerde_andParsesToSameRecord() {
        List<StageAssignment> stages = List.of(new StageAssignment("t1", "s0"), new StageAssignment("t2", "s3"),
                new StageAssignment("t3", "s3"), new StageAssignment("t4", "s0"));
        PlacementDecision d = PlacementDecision.of("r-17", "fig1", "t1", 3, false, stages, 0.01234, 1_700_000_000_017L);
        assertSameAsSerde(new DecisionWriter(), d);
    }

    @Test
    void contract_stageAssignmentsList_sameBytesAsTopicSerde() {
        DecisionWriter writer = new DecisionWriter();
        StageAssignments.Tasks tasks = new StageAssignments.Tasks(List.of("t1", "t2", "t3", "t4"));
        String[][] runs = {{"s0", "s3", "s3", "s0"}, {"sérveur-λ", "sérveur-λ", "s\"2", "s\"2"}, {"s9", "s9", "s9", "s9"}};
        for (String[] servers : runs) {
            StageAssignments stages = StageAssignments.of(tasks, servers);
            assertSameAsSerde(writer, PlacementDecision.of("r-1", "fig1", "t", 2, false, stages, 0.25, 1_700_000_000_001L));
            assertThat(writer.write(PlacementDecision.of("r-1", "fig1", "t", 2, false, stages, 0.25, 1_700_000_000_001L)))
                    .isEqualTo(writer.write(PlacementDecision.of("r-1", "fig1", "t", 2, false, List.copyOf(stages), 0.25,
                            1_700_000_000_001L)));
        }
    }

    @Test
    void contract_escapesUnicodeFallbackAndExtremeNumbers_sameBytesAsTopicSerde() {
        DecisionWriter writer = new DecisionWriter();
        List<StageAssignment> odd = List.of(new StageAssignment("conv \"1\"\\a", "sérveur-λ"),
                new StageAssignment("tab\there\nnew\u0001line", "s/1"), new StageAssignment("😀", "\u007f"));
        assertSameAsSerde(writer, PlacementDecision.of("req \"quoted\" \\ id\u0000", "modèle", "ténant\r", Long.MAX_VALUE,
                true, odd, 0.0, 0));
        assertSameAsSerde(writer, PlacementDecision.of("r", "m", "t", 0, true, odd, Double.MAX_VALUE, Long.MAX_VALUE));
        assertSameAsSerde(writer, PlacementDecision.of("r", "m", "t", 9, false, odd, Double.MIN_VALUE, 10));
        assertSameAsSerde(writer, PlacementDecision.of("r", "m", "t", 10, false, odd, 1e-7, 999_999_999_999_999_999L));
    }

    @Test
    void contract_wholeMicroseconds_writtenDigitByDigit_sameBytesAsTopicSerde() {
        DecisionWriter writer = new DecisionWriter();
        List<StageAssignment> stages = List.of(new StageAssignment("t1", "s0"));
        SplittableRandom rng = new SplittableRandom(7);
        long[] edges = {0, 1, 9, 10, 100, 999, 1_000, 1_001, 10_000, 999_999, 1_000_000, 1_000_001, 12_034_500,
                99_999_999};
        List<Long> ks = new ArrayList<>();
        for (long k : edges) {
            ks.add(k);
        }
        for (long k = 0; k < 3_000; k++) {
            ks.add(k);
        }
        for (int i = 0; i < 20_000; i++) {
            ks.add(rng.nextLong(100_000_000L));
        }
        for (long k : ks) {
            double v = k / 1e6;
            assertSameAsSerde(writer, PlacementDecision.of("r", "m", "t", 1, false, stages, v, 1));
        }
        // just outside the digit-by-digit range, and not whole microseconds: Double.toString's path
        for (double v : new double[] {100.0, 100.000001, 1e-7, 3.637806568E-4, 0.0000015, Math.nextUp(0.001)}) {
            assertSameAsSerde(writer, PlacementDecision.of("r", "m", "t", 1, false, stages, v, 1));
        }
    }

    @Test
    void contract_explanation_fullAndCompactForms_sameBytesAsTopicSerde() {
        SplittableRandom rng = new SplittableRandom(16);
        DecisionWriter writer = new DecisionWriter();
        String[] servers = {"s0", "sérveur-λ", "s\"2", "server-3"};
        for (int i = 0; i < 2_000; i++) {
            boolean compact = rng.nextBoolean();
            int parts = 1 + rng.nextInt(servers.length);
            List<StageAssignment> stages = new ArrayList<>();
            List<DecisionPart> explained = new ArrayList<>();
            for (int p = 0; p < parts; p++) {
                int n = 1 + rng.nextInt(5);
                List<String> tasks = new ArrayList<>();
                for (int t = 0; t < n; t++) {
                    String task = p == 0 && t == 0 && rng.nextInt(8) == 0 ? "tâche\t" + p : "layer" + p + "." + t;
                    tasks.add(task);
                    stages.add(new StageAssignment(task, servers[p]));
                }
                double backlog = rng.nextInt(4) == 0 ? 0.0 : Math.round(rng.nextDouble() * 1e7) / 1e6;
                explained.add(new DecisionPart(servers[p], n, compact ? tasks : null, rng.nextBoolean(), backlog,
                        rng.nextInt(5), rng.nextBoolean()));
            }
            List<Integer> choices = new ArrayList<>();
            for (int g = rng.nextInt(4); g > 0; g--) {
                choices.add(rng.nextInt(12));
            }
            double wait = explained.stream().mapToDouble(DecisionPart::predictedBacklogSeconds).max().orElse(0);
            double tau = rng.nextDouble() * 0.1;
            var why = new DecisionExplanation(explained, choices, choices.isEmpty() ? 1.0 : rng.nextDouble(0.01, 1),
                    tau, wait);
            assertSameAsSerde(writer, PlacementDecision.of("r-" + i, "model" + rng.nextInt(3), "t", i, choices.isEmpty(),
                    compact ? null : stages, tau + wait, 1_700_000_000_000L + i, why));
        }
    }

    @Test
    void contract_explanationWithServerClassAndColdStart_sameBytesAsTopicSerde() {
        SplittableRandom rng = new SplittableRandom(24);
        DecisionWriter writer = new DecisionWriter();
        String[] classes = {"a100", "t4-\"small\"", "clàsse"};
        for (int i = 0; i < 500; i++) {
            List<StageAssignment> stages = new ArrayList<>();
            List<DecisionPart> explained = new ArrayList<>();
            int parts = 1 + rng.nextInt(3);
            for (int p = 0; p < parts; p++) {
                stages.add(new StageAssignment("t" + p, "s" + p));
                boolean warm = rng.nextBoolean();
                explained.add(new DecisionPart("s" + p, 1, null, warm, Math.round(rng.nextDouble() * 1e6) / 1e6,
                        rng.nextInt(4), rng.nextBoolean(), rng.nextInt(4) == 0 ? null : classes[rng.nextInt(3)], !warm,
                        warm ? 0.0 : Math.round(rng.nextDouble() * 1e7) / 1e6));
            }
            double wait = explained.stream().mapToDouble(DecisionPart::predictedBacklogSeconds).max().orElse(0);
            var why = new DecisionExplanation(explained, List.of(), 1.0, 0.5, wait);
            assertSameAsSerde(writer, PlacementDecision.of("r-" + i, "m", "t", i, true, stages, 0.5 + wait, i, why));
        }
    }

    @Test
    void contract_randomDecisions_reusedWriterAndSharedStages_sameBytesAsTopicSerde() {
        SplittableRandom rng = new SplittableRandom(6);
        DecisionWriter writer = new DecisionWriter();
        StageAssignment[][] shared = new StageAssignment[30][100];
        for (int t = 0; t < 30; t++) {
            for (int s = 0; s < 100; s++) {
                shared[t][s] = new StageAssignment("layer" + t + ".conv", "server-" + s);
            }
        }
        for (int i = 0; i < 4_000; i++) {
            int tasks = 1 + rng.nextInt(30);
            List<StageAssignment> stages = new ArrayList<>();
            for (int t = 0; t < tasks; t++) {
                int s = rng.nextInt(i < 1_000 ? 8 : 100); // more servers than a position remembers
                // Half the stages are fresh instances with the same strings (as after a network hop).
                stages.add(rng.nextBoolean() ? shared[t][s] : new StageAssignment("layer" + t + ".conv", "server-" + s));
            }
            double jct = rng.nextInt(4) == 0 ? rng.nextInt(1000) : rng.nextDouble() * Math.pow(10, rng.nextInt(-9, 9));
            long time = rng.nextLong(Long.MAX_VALUE);
            assertSameAsSerde(writer, PlacementDecision.of("r-" + rng.nextLong(), "model" + rng.nextInt(3),
                    "tenant" + rng.nextInt(16), rng.nextLong(0, 1L << 40), rng.nextBoolean(), stages, jct,
                    rng.nextInt(3) == 0 ? rng.nextInt(10) : time));
        }
    }

    @Test
    void cache_moreDistinctStagesThanItsLimit_isClearedAndStillWritesTheSameBytes() {
        DecisionWriter writer = new DecisionWriter();
        PlacementDecision last = null;
        for (int i = 0; i <= IdCache.CACHE_LIMIT + 10; i++) {
            last = PlacementDecision.of("r" + i, "m", "t", 1, false,
                    List.of(new StageAssignment("task" + i, "s" + (i % 7))), 0.5, i);
            byte[] fast = writer.write(last);
            if (i % 10_000 == 0) {
                assertThat(fast).isEqualTo(serde.serialize(last));
            }
        }
        assertSameAsSerde(writer, last);
    }

    @Test
    void serverCache_moreServersThanItsLargestTable_growsClearsAndStillWritesTheSameBytes() {
        DecisionWriter writer = new DecisionWriter();
        int servers = IdTable.MAX_SLOTS / 2 + 1_000; // forces every doubling, then a clear
        // ids with a character to escape: plain ASCII ids are written straight from their characters, not cached
        for (int round = 0; round < 2; round++) { // the second round finds the entries the first one left
            for (int i = 0; i < servers; i++) {
                PlacementDecision d = PlacementDecision.of("r" + i, "m", "t", 1, false,
                        List.of(new StageAssignment("a", "sérveur-" + i), new StageAssignment("b", "sérveur-" + (servers - 1 - i))),
                        0.5, i);
                byte[] fast = writer.write(d);
                if (i % 997 == 0 || i >= servers - 3) {
                    assertThat(fast).isEqualTo(serde.serialize(d));
                }
            }
        }
    }
}
