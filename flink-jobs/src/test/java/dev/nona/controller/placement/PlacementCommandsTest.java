package dev.nona.controller.placement;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.controller.TestingCluster;
import dev.nona.controller.command.ActiveCommands;
import dev.nona.controller.cluster.ClusterSnapshot;
import dev.nona.controller.optimize.ControllerTable;
import dev.nona.controller.optimize.NonaTableSolver;
import dev.nona.controller.optimize.SolveInput;
import dev.nona.controller.optimize.SolveResult;
import dev.nona.controller.source.RequestRecord;
import dev.nona.topics.record.ControllerCommand;
import dev.nona.topics.record.DeadLetter;
import dev.nona.topics.record.InferenceRequest;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.StageAssignment;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.apache.flink.streaming.util.BroadcastOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.Test;

/** The placement operator honours the operator's commands in every decision (issue 16 §4). */
final class PlacementCommandsTest {
    private ActiveCommands active = ActiveCommands.NONE;
    private int ids;

    private static BroadcastOperatorTestHarness<RequestRecord, BroadcastUpdate, PlacementDecision> harness() throws Exception {
        return ProcessFunctionTestHarnesses.forBroadcastProcessFunction(
                new PlacementFunction("inference-requests", 3, new NonaPlacerFactory()),
                PlacementFunction.TABLE, PlacementFunction.SERVERS, PlacementFunction.MODELS, PlacementFunction.LEARNED,
                PlacementFunction.COMMANDS);
    }

    private static RequestRecord request(String id, String tenant, long eventTime) {
        return new RequestRecord(InferenceRequest.of(id, "fig1", tenant, eventTime, null), null, 2, 42);
    }

    private static ControllerTable table(long version, int servers) {
        SolveInput in = new SolveInput(Map.of("fig1", TestingCluster.figure1()), Map.of("fig1", 20.0),
                TestingCluster.snapshot(servers), "test");
        SolveResult r = new NonaTableSolver(false).solve(in, null);
        return new ControllerTable(version, false, 0, "test", in.rates(), in.cluster(), r.objective(), r.linkLoad(),
                r.predictedJctSeconds(), r.tableJson());
    }

    private static void cluster(BroadcastOperatorTestHarness<RequestRecord, BroadcastUpdate, PlacementDecision> h,
            int servers, boolean withTable) throws Exception {
        for (int i = 0; i < servers; i++) {
            h.processBroadcastElement(BroadcastUpdate.of(TestingCluster.server("s" + i, 0)), 0);
        }
        h.processBroadcastElement(BroadcastUpdate.of(TestingCluster.entry("fig1", TestingCluster.figure1())), 0);
        if (withTable) {
            h.processBroadcastElement(BroadcastUpdate.of(table(7, servers)), 0);
        }
    }

    private void command(BroadcastOperatorTestHarness<RequestRecord, BroadcastUpdate, PlacementDecision> h,
            ControllerCommand c) throws Exception {
        active = active.with(c);
        h.processBroadcastElement(BroadcastUpdate.of(active), 0);
    }

    private String id() {
        return "c" + ids++;
    }

    private static Set<String> servers(List<PlacementDecision> decisions) {
        Set<String> s = new TreeSet<>();
        decisions.forEach(d -> d.stages().forEach(x -> s.add(x.server())));
        return s;
    }

    private static List<DeadLetter> deadLetters(BroadcastOperatorTestHarness<RequestRecord, BroadcastUpdate, PlacementDecision> h) {
        var out = h.getSideOutput(PlacementFunction.UNPLACED);
        return out == null ? List.of() : out.stream().map(r -> r.getValue()).toList();
    }

    @Test
    void drain_serverGetsNoNewStages_inTableAndFallbackDecisions_untilUndrained() throws Exception {
        for (boolean withTable : new boolean[] {true, false}) {
            try (var h = harness()) {
                cluster(h, 4, withTable);
                command(h, ControllerCommand.drain(id(), 1, "s1", true));
                for (int i = 0; i < 400; i++) {
                    h.processElement(request("r" + i, "t", 1000 + i), 1000);
                }
                assertThat(h.extractOutputValues()).hasSize(400);
                assertThat(servers(h.extractOutputValues())).as("table: %s", withTable).doesNotContain("s1")
                        .contains("s0", "s2", "s3");
                command(h, ControllerCommand.drain(id(), 2, "s1", false));
                for (int i = 0; i < 400; i++) {
                    h.processElement(request("u" + i, "t", 2000 + i), 1000);
                }
                List<PlacementDecision> after = h.extractOutputValues().subList(400, 800);
                assertThat(servers(after)).contains("s1");
            }
        }
    }

    @Test
    void commandsInForceAtStart_holdFromTheFirstRequest_untilTheCommandOperatorsNextChange() throws Exception {
        ActiveCommands atStart = ActiveCommands.NONE.with(ControllerCommand.drain("d1", 1, "s1", true));
        try (var h = ProcessFunctionTestHarnesses.forBroadcastProcessFunction(
                new PlacementFunction("inference-requests", 3, new NonaPlacerFactory(),
                        List.of(BroadcastUpdate.of(TestingCluster.entry("fig1", TestingCluster.figure1())),
                                BroadcastUpdate.of(atStart)), PlacementFunction.DEFAULT_STARTUP_BUFFER),
                PlacementFunction.TABLE, PlacementFunction.SERVERS, PlacementFunction.MODELS, PlacementFunction.LEARNED,
                PlacementFunction.COMMANDS)) {
            for (int i = 0; i < 4; i++) {
                h.processBroadcastElement(BroadcastUpdate.of(TestingCluster.server("s" + i, 0)), 0);
            }
            h.processBroadcastElement(BroadcastUpdate.of(table(7, 4)), 0);
            for (int i = 0; i < 200; i++) {
                h.processElement(request("r" + i, "t", 1000 + i), 1000);
            }
            assertThat(servers(h.extractOutputValues())).as("drained before the start").doesNotContain("s1")
                    .contains("s0", "s2", "s3");
            // the command operator continues from the commands in force at start: its next change replaces them
            h.processBroadcastElement(BroadcastUpdate.of(atStart.with(ControllerCommand.drain("u1", 2, "s1", false))), 0);
            for (int i = 0; i < 200; i++) {
                h.processElement(request("u" + i, "t", 2000 + i), 1000);
            }
            assertThat(servers(h.extractOutputValues().subList(200, 400))).contains("s1");
        }
    }

    @Test
    void pin_everyStageOnThePinnedServers_andAPinWithNoServerUpIsADeadLetter() throws Exception {
        try (var h = harness()) {
            cluster(h, 5, true);
            command(h, ControllerCommand.pin(id(), 1, "fig1", List.of("s2", "s4")));
            for (int i = 0; i < 300; i++) {
                h.processElement(request("r" + i, "t", 1000 + i), 1000);
            }
            assertThat(servers(h.extractOutputValues())).containsExactly("s2", "s4");
            command(h, ControllerCommand.drain(id(), 2, "s2", true));
            command(h, ControllerCommand.drain(id(), 3, "s4", true));
            h.processElement(request("nowhere", "t", 2000), 1000);
            assertThat(deadLetters(h)).singleElement().satisfies(dl -> assertThat(dl.reason())
                    .isEqualTo("model 'fig1' is pinned to [s2, s4] and none of them is up"));
        }
    }

    @Test
    void startupBuffer_heldRequestsArePlacedUnderTheCommands() throws Exception {
        try (var h = harness()) {
            command(h, ControllerCommand.tenantRule(id(), 1, "acme", List.of("s3"), 1.0));
            for (int i = 0; i < 20; i++) {
                h.processElement(request("held" + i, i % 2 == 0 ? "acme" : "other", 1000 + i), 1000);
            }
            assertThat(h.extractOutputValues()).isEmpty();
            cluster(h, 4, false);
            List<PlacementDecision> out = h.extractOutputValues();
            assertThat(out).hasSize(20);
            assertThat(servers(out.stream().filter(d -> d.tenant().equals("other")).toList())).doesNotContain("s3");
        }
    }

    /**
     * 100,000 requests of three tenants on six servers: acme owns s0, s1 (maximum share 0.5) and sends 60% of the
     * requests, beta owns s2, s3 (share 0.5) and sends 25%, free has no rule (15%); s4, s5 are no one's. No stage of
     * a tenant ever lands on another tenant's server, free stays on s4, s5, and acme, over its share most of the time,
     * is kept to its own servers then.
     */
    @Test
    void tenantRules_hundredThousandRequests_noStageOnAnotherTenantsServer() throws Exception {
        try (var h = harness()) {
            cluster(h, 6, true);
            command(h, ControllerCommand.tenantRule(id(), 1, "acme", List.of("s0", "s1"), 0.5));
            command(h, ControllerCommand.tenantRule(id(), 1, "beta", List.of("s2", "s3"), 0.5));
            Map<String, Set<String>> used = new HashMap<>();
            Map<String, Integer> count = new HashMap<>();
            SplittableRandom rng = new SplittableRandom(16);
            int n = 100_000;
            for (int i = 0; i < n; i++) {
                double u = rng.nextDouble();
                String tenant = u < 0.6 ? "acme" : u < 0.85 ? "beta" : "free";
                h.processElement(request("r" + i, tenant, 1_000 + i), 1000); // 1,000 requests per second of event time
                for (PlacementDecision d : h.extractOutputValues()) {
                    Set<String> s = used.computeIfAbsent(d.tenant(), t -> new TreeSet<>());
                    d.stages().forEach(x -> s.add(x.server()));
                    count.merge(d.tenant(), 1, Integer::sum);
                    if (d.tenant().equals("acme")) {
                        assertThat(d.stages()).extracting(StageAssignment::server).allMatch(Set.of("s0", "s1", "s4", "s5")::contains);
                    }
                }
                h.getOutput().clear();
            }
            assertThat(deadLetters(h)).isEmpty();
            assertThat(count.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(n);
            assertThat(used.get("acme")).doesNotContain("s2", "s3").contains("s0", "s1");
            assertThat(used.get("beta")).doesNotContain("s0", "s1").contains("s2", "s3");
            assertThat(used.get("free")).containsOnly("s4", "s5");
        }
    }

    @Test
    void tenantOverItsShare_withNoOwnServerUp_isADeadLetterWithTheReason() throws Exception {
        try (var h = harness()) {
            cluster(h, 4, true);
            command(h, ControllerCommand.tenantRule(id(), 1, "acme", List.of("s0"), 0.5));
            for (int i = 0; i < 10; i++) {
                h.processElement(request("r" + i, "acme", 1000 + i), 1000);
            }
            command(h, ControllerCommand.drain(id(), 2, "s0", true));
            h.processElement(request("over", "acme", 1100), 1000);
            assertThat(deadLetters(h)).singleElement().satisfies(dl -> assertThat(dl.reason()).isEqualTo(
                    "tenant 'acme' is over its share (1.000 > 0.500 of the requests placed in the last 10 s) and none "
                            + "of its servers [s0] is up"));
            h.processElement(request("fine", "other", 1100), 1000);
            assertThat(h.extractOutputValues()).extracting(PlacementDecision::requestId).contains("fine");
        }
    }
}
