package dev.nona.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.controller.optimize.ControllerTable;
import dev.nona.controller.placement.BroadcastUpdate;
import dev.nona.controller.placement.DecisionExplanations;
import dev.nona.controller.placement.NonaPlacerFactory;
import dev.nona.controller.placement.RequestPlacer;
import dev.nona.controller.placement.ServerReports;
import dev.nona.placement.LiveServers;
import dev.nona.controller.serde.DecisionWriter;
import dev.nona.placement.PlacementExplanation;
import dev.nona.topics.record.DecisionExplanation;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.StageAssignment;
import dev.nona.topics.record.ServerTelemetry;
import dev.nona.topics.serde.JsonSerde;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The pipeline benchmark's real decisions (zoo models, solved table): the fast writer's bytes are the serde's, on 16
 * servers and on 1,000 (more servers than a placer keeps rows of stage assignments for, and than the writer's first
 * server table holds).
 */
final class BenchmarkDecisionsTest {
    @Test
    void contract_benchmarkDecisions_writerBytesEqualSerde_andParseBack() {
        writerBytesEqualSerde(16, 3_000);
    }

    @Test
    void contract_benchmarkDecisionsOnAThousandServers_writerBytesEqualSerde_andParseBack() {
        writerBytesEqualSerde(1_000, 6_000);
    }

    private static void writerBytesEqualSerde(int serverCount, int requests) {
        List<String> models = List.of("resnet18", "alexnet", PipelineBenchmark.FIGURE_1);
        List<BroadcastUpdate> snapshot = PipelineBenchmark.snapshot(models, serverCount);
        ControllerTable table = snapshot.stream().filter(u -> u.table() != null).findFirst().orElseThrow().table();
        List<ServerTelemetry> telemetry = new ArrayList<>();
        snapshot.stream().filter(u -> u.server() != null).forEach(u -> telemetry.add(u.server()));
        LiveServers servers = ServerReports.of(telemetry, 3);
        NonaPlacerFactory factory = new NonaPlacerFactory();
        List<RequestPlacer> placers = new ArrayList<>();
        for (String m : models) {
            var dag = snapshot.stream().filter(u -> u.catalog() != null && u.catalog().model().equals(m)).findFirst()
                    .orElseThrow().catalog().dag();
            RequestPlacer placer = factory.create(m, dag, table, 1e13);
            assertThat(placer).as(m).isNotNull();
            placers.add(placer);
        }
        JsonSerde<PlacementDecision> serde = new JsonSerde<>(PlacementDecision.class, Integer.MAX_VALUE);
        DecisionWriter writer = new DecisionWriter();
        SplittableRandom rng = new SplittableRandom(66);
        for (int i = 0; i < requests; i++) {
            int m = i % models.size();
            RequestPlacer placer = placers.get(m);
            List<StageAssignment> stages = placer.place(servers, GeneratedRequests.BASE + i, rng);
            PlacementExplanation why = placer.explanation();
            boolean compact = i % 2 == 1;
            DecisionExplanation e = DecisionExplanations.of(why, servers, placer.tasks(), compact);
            PlacementDecision d = PlacementDecision.of("r-" + i, models.get(m), "t" + (i & 15), table.version(), false,
                    compact ? null : stages, e.tableJctSeconds() + e.waitSeconds(), GeneratedRequests.BASE + i, e);
            byte[] fast = writer.write(d);
            assertThat(fast).isEqualTo(serde.serialize(d));
            assertThat(serde.parse(fast).value()).isEqualTo(d);
            assertThat(d.placedStages()).containsExactlyInAnyOrderElementsOf(stages);
        }
    }
}
