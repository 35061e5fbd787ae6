package dev.nona.placement;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.optimize.CostModel;
import dev.nona.workload.ColdStartCost;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A model larger than every server runs in parts (the optimiser cuts it, {@code dag.MemoryCut}), and no report can say
 * which parts a server holds: the placer remembers where it sent each part ({@link LiveServers#loadingPart}) and keeps
 * that while the servers' reports show them holding as many bytes of the model.
 */
final class PartWarmthTest {
    private static final long T = 1_000;
    /** The warm pools of {@link #table()}'s parts ({@code ControllerPlacement.partName}): p with the root, q with the sink. */
    private static final String P_POOL = "big\u0000part p,s";
    private static final String Q_POOL = "big\u0000part k,q";

    /** Model "big": source s, parts {p} and {q} apart (root with p, sink k with q); 60 bytes, servers hold 40. */
    private static PlacementTable table() {
        return table(new PlacementTable.Choice(List.of(List.of("p"), List.of("q")), 0, 1, 1.0));
    }

    /** As {@link #table()}, with {@code choices} for its subgraph. */
    private static PlacementTable table(PlacementTable.Choice... choices) {
        var sg = new PlacementTable.SubgraphPlacement("s", "k", List.of("k"), List.of(choices));
        var model = new PlacementTable.ModelPlacement("big", 20, 0.05, List.of("s", "p", "q", "k"), List.of("s"),
                List.of(sg));
        var solvedFor = new PlacementTable.SolvedFor(PlacementFixtures.problem(8).cluster(), Map.of("big", 20.0), null,
                CostModel.DEFAULT);
        return new PlacementTable(1, 0, solvedFor, true, "", 1, 0.1, 0.001, 1, List.of(model), 0);
    }

    private static ControllerPlacement placement() {
        return placement(table());
    }

    private static ControllerPlacement placement(PlacementTable table) {
        return ControllerPlacement.of(new PlacementSampler(table), "big",
                Map.of("s", 1e8, "p", 1e9, "q", 1e9, "k", 1e8), Map.of("s", 1.0, "p", 29.0, "q", 29.0, "k", 1.0));
    }

    /** Eight idle servers of 40 bytes holding nothing of the model; loads of 1 s + 1 s per 10 bytes. */
    private static LiveServers servers() {
        LiveServers servers = new LiveServers(4, 0, 1, LiveServers.NO_LIVENESS_TIMEOUT);
        servers.coldStart(new ColdStartCost(1, 10));
        for (int s = 0; s < 8; s++) {
            servers.report("s" + s, true, 1e9, 0, 0.0, List.of(), "gpu", 40, T, 0);
        }
        return servers;
    }

    @Test
    void thePartsOfAModelNoServerHolds_goBackWhereTheyWereSent_notToAnotherColdServer() {
        ControllerPlacement big = placement();
        LiveServers servers = servers();
        SplittableRandom rng = new SplittableRandom(3);
        int[] first = big.place(servers, T, rng).clone();
        assertThat(first[1]).as("p and q apart").isNotEqualTo(first[2]);
        placedAgainWhereSent(big, servers, rng, first, first[0], first[2]);
    }

    /**
     * Twenty more requests of {@code big}, 10 s apart, each after every server reports again, idle, servers
     * {@code a} and {@code b} holding the 30 bytes of the part each got: each goes where {@code first} went, warm.
     */
    private static void placedAgainWhereSent(ControllerPlacement big, LiveServers servers, SplittableRandom rng,
            int[] first, int a, int b) {
        PlacementExplanation why = new PlacementExplanation();
        for (int r = 0; r < 20; r++) {
            long now = T + 10_000L * (r + 1);
            for (int s = 0; s < 8; s++) {
                servers.report("s" + s, true, 1e9, 0, 0.0, List.of(), "gpu", 40, now, 0);
                int held = (s == a ? 30 : 0) + (s == b ? 30 : 0);
                servers.heldBytes(s, model -> model.equals("big") ? held : 0);
            }
            int[] out = big.place(servers, now, rng, why);
            assertThat(out).as("request %d", r).containsExactly(first);
            assertThat(why.coldStart(0)).isFalse();
            assertThat(why.coldStart(1)).isFalse();
        }
    }

    /**
     * A model of two subgraphs no server holds whole: s, p, k1 (subgraph 1, p with its root and sink) and q1, q2, k2
     * (subgraph 2, q1 with its root k1, q2 with its sink k2). Its parts are the servers' slots across the subgraphs,
     * {s, p, k1, q1} and {q2, k2}, 30 bytes each; servers hold 40.
     */
    private static ControllerPlacement twoSubgraphs() {
        var first = new PlacementTable.SubgraphPlacement("s", "k1", List.of("k1"),
                List.of(new PlacementTable.Choice(List.of(List.of("p")), 0, 0, 1.0)));
        var second = new PlacementTable.SubgraphPlacement("k1", "k2", List.of("k2"),
                List.of(new PlacementTable.Choice(List.of(List.of("q1"), List.of("q2")), 0, 1, 1.0)));
        var model = new PlacementTable.ModelPlacement("big", 20, 0.05, List.of("s", "p", "k1", "q1", "q2", "k2"),
                List.of("s"), List.of(first, second));
        var solvedFor = new PlacementTable.SolvedFor(PlacementFixtures.problem(8).cluster(), Map.of("big", 20.0), null,
                CostModel.DEFAULT);
        var table = new PlacementTable(1, 0, solvedFor, true, "", 1, 0.1, 0.001, 1, List.of(model), 0);
        return ControllerPlacement.of(new PlacementSampler(table), "big",
                Map.of("s", 1e8, "p", 1e9, "k1", 1e8, "q1", 1e8, "q2", 1e9, "k2", 1e8),
                Map.of("s", 1.0, "p", 19.0, "k1", 1.0, "q1", 9.0, "q2", 29.0, "k2", 1.0));
    }

    /** The parts of a model of several subgraphs are warm pools of their own too, named by the tasks they run. */
    @Test
    void thePartsOfAModelOfSeveralSubgraphs_goBackWhereTheyWereSent() {
        ControllerPlacement big = twoSubgraphs();
        LiveServers servers = servers();
        SplittableRandom rng = new SplittableRandom(3);
        int[] first = big.place(servers, T, rng).clone();
        assertThat(first[0]).as("s, p, k1 and q1 together").isEqualTo(first[1]).isEqualTo(first[2]).isEqualTo(first[3]);
        assertThat(first[4]).as("q2 and k2 together, apart").isEqualTo(first[5]).isNotEqualTo(first[0]);
        assertThat(servers.isWarm(first[0], servers.pool("big\u0000part k1,p,q1,s"))).isTrue();
        assertThat(servers.isWarm(first[4], servers.pool("big\u0000part k2,q2"))).isTrue();
        placedAgainWhereSent(big, servers, rng, first, first[0], first[4]);
    }

    /**
     * Parts of different subgraphs may share a server: model "big" of two subgraphs, s, p1, k1, p2 and q1, q2, q3, k2,
     * each with a part apart from its root and sink ({p2}, then {q2} or {q2, q3}), on two servers of 30 bytes. Both
     * parts apart go to the server that does not run the root. When a new table changes the second one, that server
     * holds the first (warm) but not the second (cold): the request is predicted to load the cold one there, only it.
     */
    @Test
    void twoPartsOfARequestOnOneServer_oneWarmOneCold_predictTheColdOnesLoad() {
        var first = new PlacementTable.SubgraphPlacement("s", "k1", List.of("k1"),
                List.of(new PlacementTable.Choice(List.of(List.of("p1"), List.of("p2")), 0, 0, 1.0)));
        var bytes = Map.of("s", 1.0, "p1", 9.0, "k1", 1.0, "p2", 9.0, "q1", 9.0, "q2", 9.0, "q3", 2.0, "k2", 1.0);
        var ops = Map.of("s", 1e8, "p1", 1e8, "k1", 1e8, "p2", 1e9, "q1", 1e8, "q2", 1e9, "q3", 1e9, "k2", 1e8);
        LiveServers servers = new LiveServers(4, 0, 1, LiveServers.NO_LIVENESS_TIMEOUT);
        servers.coldStart(new ColdStartCost(1, 10));
        for (int s = 0; s < 2; s++) {
            servers.report("s" + s, true, 1e9, 0, 0.0, List.of(), "gpu", 30, T, 0);
        }
        ControllerPlacement before = twoSubgraphs(first, List.of(List.of("q1", "q3"), List.of("q2")), ops, bytes);
        int[] out = before.place(servers, T, new SplittableRandom(1)).clone();
        int apart = out[3];
        assertThat(out[6]).as("q2 with p2").isEqualTo(apart);
        assertThat(out[0]).isNotEqualTo(apart);
        long now = T + 10_000;
        for (int s = 0; s < 2; s++) {
            servers.report("s" + s, true, 1e9, 0, 0.0, List.of(), "gpu", 30, now, 0);
            double held = s == apart ? 18 : 23;
            servers.heldBytes(s, model -> model.equals("big") ? held : 0);
        }

        ControllerPlacement next = twoSubgraphs(first, List.of(List.of("q1"), List.of("q2", "q3")), ops, bytes);
        PlacementExplanation why = new PlacementExplanation();
        out = next.place(servers, now, new SplittableRandom(1), why);

        assertThat(out[3]).isEqualTo(apart);
        assertThat(out[6]).as("q2 and q3 with p2").isEqualTo(apart).isEqualTo(out[5]);
        assertThat(why.coldStart(why.partOfServer(apart))).as("{p2} warm there, {q2, q3} cold").isTrue();
        assertThat(servers.backlogSeconds(apart, now)).as("1 s of p2, 2 s of q2 and q3, and the load of {q2, q3} alone: "
                + "1 s + 11 bytes at 10 bytes/s").isCloseTo(3 + 2.1, org.assertj.core.api.Assertions.within(1e-9));
    }

    /** Model "big" of two subgraphs (s to k1 with {@code first}; k1 to k2 with parts {@code second}, root with the first, sink too). */
    private static ControllerPlacement twoSubgraphs(PlacementTable.SubgraphPlacement first, List<List<String>> second,
            Map<String, Double> ops, Map<String, Double> bytes) {
        var sg2 = new PlacementTable.SubgraphPlacement("k1", "k2", List.of("k2"),
                List.of(new PlacementTable.Choice(second, 0, 0, 1.0)));
        var model = new PlacementTable.ModelPlacement("big", 20, 0.05,
                List.of("s", "p1", "k1", "p2", "q1", "q3", "q2", "k2"), List.of("s"), List.of(first, sg2));
        var solvedFor = new PlacementTable.SolvedFor(PlacementFixtures.problem(8).cluster(), Map.of("big", 20.0), null,
                CostModel.DEFAULT);
        var table = new PlacementTable(1, 0, solvedFor, true, "", 1, 0.1, 0.001, 1, List.of(model), 0);
        return ControllerPlacement.of(new PlacementSampler(table), "big", ops, bytes);
    }

    /**
     * A part is its tasks, not its index in a table: a new table (a re-solve) that lists the same parts in another
     * order, beside another choice, finds them warm where the old table's requests loaded them.
     */
    @Test
    void aNewTableWithTheSameParts_findsThemWarm() {
        LiveServers servers = servers();
        int[] first = placement().place(servers, T, new SplittableRandom(3)).clone();
        long now = T + 10_000;
        for (int s = 0; s < 8; s++) {
            servers.report("s" + s, true, 1e9, 0, 0.0, List.of(), "gpu", 40, now, 0);
            int held = (s == first[0] ? 30 : 0) + (s == first[2] ? 30 : 0);
            servers.heldBytes(s, model -> model.equals("big") ? held : 0);
        }
        ControllerPlacement next = placement(table(
                new PlacementTable.Choice(List.of(List.of("q"), List.of("p")), 1, 0, 0.999),
                new PlacementTable.Choice(List.of(List.of("p"), List.of("q")), 1, 0, 0.001)));
        PlacementExplanation why = new PlacementExplanation();

        int[] out = next.place(servers, now, new SplittableRandom(1), why);

        assertThat(why.choice(0)).as("the first choice: the same parts, listed the other way").isZero();
        assertThat(out).containsExactly(first);
        assertThat(why.coldStart(0)).isFalse();
        assertThat(why.coldStart(1)).isFalse();
    }

    @Test
    void aServerWhoseReportShowsLessOfTheModel_isColdForItsPartAgain() {
        ControllerPlacement big = placement();
        LiveServers servers = servers();
        int[] first = big.place(servers, T, new SplittableRandom(3)).clone();
        int pool = servers.pool(P_POOL);
        assertThat(servers.isWarm(first[0], pool)).isTrue();
        assertThat(servers.holdsParts(first[0])).isTrue();
        // reports made once the part is predicted done (a 4 s load, 1 s of work)
        servers.report("s" + first[0], true, 1e9, 0, 0.0, List.of(), "gpu", 40, T + 6_000, 0);
        servers.heldBytes(first[0], model -> 30);
        assertThat(servers.isWarm(first[0], pool)).as("it still holds 30 bytes of it").isTrue();
        servers.report("s" + first[0], true, 1e9, 0, 0.0, List.of(), "gpu", 40, T + 7_000, 0);
        servers.heldBytes(first[0], model -> 20);
        assertThat(servers.isWarm(first[0], pool)).as("evicted").isFalse();
        assertThat(servers.holdsParts(first[0])).isFalse();
    }

    /**
     * An executor loads a part when its first task starts, and the decision takes time to reach it: a report made
     * before the part is predicted done (its load of 4 s and its 1 s of work behind the server's backlog) does not
     * show it yet, and keeps it; a report made after that and showing none of the model forgets it.
     */
    @Test
    void aReportMadeBeforeThePartIsDue_keepsIt_oneMadeAfter_forgetsIt() {
        LiveServers servers = servers();
        int[] first = placement().place(servers, T, new SplittableRandom(3)).clone();
        int pool = servers.pool(P_POOL);
        String id = "s" + first[0];

        servers.report(id, true, 1e9, 0, 0.0, List.of(), "gpu", 40, T + 100, 0);
        servers.heldBytes(first[0], model -> 0);
        assertThat(servers.isWarm(first[0], pool)).as("made 0.1 s after the part was sent").isTrue();
        servers.report(id, true, 1e9, 1, 4.5, List.of(), "gpu", 40, T + 4_900, 0);
        servers.heldBytes(first[0], model -> 0);
        assertThat(servers.isWarm(first[0], pool)).as("made 4.9 s after: still loading, or waiting").isTrue();

        servers.report(id, true, 1e9, 0, 0.0, List.of(), "gpu", 40, T + 5_200, 0);
        servers.heldBytes(first[0], model -> 0);

        assertThat(servers.isWarm(first[0], pool)).as("made after the part was due, showing none of it").isFalse();
        assertThat(servers.holdsParts(first[0])).isFalse();
    }

    /**
     * A request held until a table came is placed well after it was made: its part is due by the present, the newest
     * report's time, not by the request's. Made at T, placed once a report of T + 3 s is in: a report of T + 5.5 s
     * (past T + 5.1 s, within T + 3 s + 5.1 s) showing none of it keeps it.
     */
    @Test
    void aPartOfAHeldRequest_isDueByThePresent_notByWhenTheRequestWasMade() {
        LiveServers servers = servers();
        for (int s = 0; s < 8; s++) {
            servers.report("s" + s, true, 1e9, 0, 0.0, List.of(), "gpu", 40, T + 3_000, 0);
        }
        int[] first = placement().place(servers, T, new SplittableRandom(3)).clone();
        int pool = servers.pool(P_POOL);

        servers.report("s" + first[0], true, 1e9, 1, 2.5, List.of(), "gpu", 40, T + 5_500, 0);
        servers.heldBytes(first[0], model -> 0);

        assertThat(servers.isWarm(first[0], pool)).isTrue();
    }

    @Test
    void loadingAPartThatDoesNotFitBesideTheModelsOlderPart_evictsIt() {
        LiveServers servers = servers();
        int p = servers.pool("big\u0000part 0.0");
        int q = servers.pool("big\u0000part 0.1");
        int other = servers.pool("small\u0000part 0.0");
        servers.loadingPart(0, p, "big", 30, T, 0);
        servers.loadingPart(0, other, "small", 5, T, 0);
        assertThat(servers.isWarm(0, p)).isTrue();
        servers.loadingPart(0, q, "big", 30, T, 0);
        assertThat(servers.isWarm(0, q)).isTrue();
        assertThat(servers.isWarm(0, p)).as("30 + 30 bytes do not fit 40").isFalse();
        assertThat(servers.isWarm(0, other)).as("another model's part is the reports' to evict").isTrue();
        // the reports keep each model's newest parts that their bytes cover
        servers.heldBytes(0, model -> model.equals("big") ? 30 : 0);
        assertThat(servers.isWarm(0, q)).isTrue();
        assertThat(servers.isWarm(0, other)).as("the report holds none of it").isFalse();
        // a model evicted whole, the next model's part behind it still checked
        servers.loadingPart(1, p, "big", 30, T, 0);
        servers.loadingPart(1, other, "small", 5, T, 0);
        servers.heldBytes(1, model -> model.equals("small") ? 5 : 0);
        assertThat(servers.isWarm(1, p)).isFalse();
        assertThat(servers.isWarm(1, other)).isTrue();
        servers.heldBytes(1, model -> 0);
        assertThat(servers.holdsParts(1)).isFalse();
    }

    /**
     * What a checkpoint keeps ({@link LiveServers#knownParts}) a new placer knows again ({@link LiveServers#restoreParts}):
     * each part on its server, by its pool's name (pool ids are the placer's own), with its latest use; a part known
     * twice keeps the later use, and a server not known is dropped.
     */
    @Test
    void knownParts_restoredInANewPlacer_areWarmOnTheSameServers() {
        LiveServers before = servers();
        before.pool("small\u0000part 0.0"); // pool ids differ between the placers
        before.loadingPart(2, before.pool("big\u0000part 0.0"), "big", 30, T, 0);
        before.loadingPart(5, before.pool("big\u0000part 0.1"), "big", 30, T + 2_000, 0);
        List<LiveServers.KnownPart> known = before.knownParts();
        assertThat(known).containsExactlyInAnyOrder(new LiveServers.KnownPart("s2", "big\u0000part 0.0", "big", 30, 1.0, 1.0),
                new LiveServers.KnownPart("s5", "big\u0000part 0.1", "big", 30, 3.0, 3.0));

        LiveServers after = servers();
        var twice = new ArrayList<>(known);
        twice.add(new LiveServers.KnownPart("s2", "big\u0000part 0.0", "big", 30, 0.5, 0.5)); // another placer's, older
        twice.add(new LiveServers.KnownPart("gone", "big\u0000part 0.0", "big", 30, 1.0, 1.0));
        after.restoreParts(twice);

        assertThat(after.knownParts()).containsExactlyInAnyOrderElementsOf(known);
        assertThat(after.isWarm(2, after.pool("big\u0000part 0.0"))).isTrue();
        assertThat(after.isWarm(5, after.pool("big\u0000part 0.1"))).isTrue();
        assertThat(after.isWarm(5, after.pool("big\u0000part 0.0"))).isFalse();
        // and the reports check them as they check the parts the placer sent itself
        after.report("s5", true, 1e9, 0, 0.0, List.of(), "gpu", 40, T + 10_000, 0);
        after.heldBytes(5, model -> 0);
        assertThat(after.isWarm(5, after.pool("big\u0000part 0.1"))).as("evicted since the checkpoint").isFalse();
        assertThat(after.holdsParts(5)).isFalse();
    }

    /** s0 idle with part q (its latest request at {@code qUsed}), s1 with p and s2 cold both behind 10 s, at {@code now}. */
    private static LiveServers qIdlePBusy(long now, long qUsed) {
        LiveServers servers = new LiveServers(4, 0, 1, LiveServers.NO_LIVENESS_TIMEOUT);
        servers.coldStart(new ColdStartCost(1, 10));
        servers.report("s0", true, 1e9, 0, 0.0, List.of(), "gpu", 40, now, 0);
        servers.report("s1", true, 1e9, 1, 10.0, List.of(), "gpu", 40, now, 0);
        servers.report("s2", true, 1e9, 1, 10.0, List.of(), "gpu", 40, now, 0);
        servers.loadingPart(1, servers.pool(P_POOL), "big", 30, now, 0);
        servers.loadingPart(0, servers.pool(Q_POOL), "big", 30, qUsed, 0);
        return servers;
    }

    /**
     * s0 holds part q and is idle; s1 holds part p behind 10 s of work; s2 is cold behind 10 s. Part p would finish
     * first on s0 (a 4 s load, then 1.1 s), but there it would evict q (30 + 30 bytes, servers of 40), which the next
     * request would load again: p waits on s1 (12.2 s by marginal cost) and q goes to s0, where it is warm.
     */
    @Test
    void aPartIsNotLoadedWhereItWouldEvictTheModelsOtherPart_whileAnotherServerFits() {
        LiveServers servers = qIdlePBusy(T, T);

        int[] out = placement().place(servers, T, new SplittableRandom(3));

        assertThat(servers.id(out[0])).as("p").isEqualTo("s1");
        assertThat(servers.id(out[2])).as("q").isEqualTo("s0");
    }

    /**
     * As above, but q's latest request on s0 was more than the rent's half-life (5 s by default) ago: the parts the
     * requests keep using are protected, not the servers that first took each part, so p's 5.1 s there now beats
     * 12.2 s on s1 (and q goes elsewhere).
     */
    @Test
    void aPartUnusedForTheHalfLife_doesNotKeepAnotherPartOffItsServer() {
        long later = T + 6_000;
        LiveServers servers = qIdlePBusy(later, T);

        int[] out = placement().place(servers, later, new SplittableRandom(3));

        assertThat(servers.id(out[0])).as("p").isEqualTo("s0");
    }

    /**
     * Part p (30 bytes, 1 s of compute) of a model no server holds whole, on three servers of 40 bytes, none with 30
     * bytes free: s0 runs a request of p, sent with 10 s of work ahead of it (the part pinned there: 10 bytes free);
     * s1 and s2 are idle with 20 bytes free (other parts' running stages pin the rest). The part fits now only on s0,
     * where it needs no new memory; s1 would cost less (a 4 s load, then 1 s) but cannot hold it until its pinned parts
     * finish, and the simulator refuses such a placement (a memory violation). Once s0 reports nothing running, it is
     * judged by its free memory again: the part goes to s1 when s1 has room for it, though s0 is warm by the placer's
     * last word.
     */
    @Test
    void aPartPinnedWhereARequestOfItRuns_fitsThereNow_whereNoServerHasItsBytesFree() {
        LiveServers servers = s0BusyOfThree(0.0);
        int p = servers.pool(P_POOL);
        servers.loadingPart(0, p, "big", 30, T, 0);
        freeOnThree(servers, T, 10, 20, 20);

        for (int seed = 0; seed < 5; seed++) {
            int s = servers.pickPart(p, new int[0], 0, 1e9, 30, new Footprint(), T + 500,
                    new SplittableRandom(seed));
            assertThat(servers.id(s)).as("seed %d", seed).isEqualTo("s0");
        }
        servers.report("s0", true, 1e9, 0, 0.0, List.of(), "gpu", 40, T + 1_000, 0);
        servers.freeMemoryBytes(0, 10, T + 1_000);
        servers.freeMemoryBytes(1, 30, T + 1_000);
        int after = servers.pickPart(p, new int[0], 0, 1e9, 30, new Footprint(), T + 1_000, new SplittableRandom(1));
        assertThat(servers.id(after)).as("s0 reported idle: nothing pins p there, and 10 bytes free mean it is gone")
                .isEqualTo("s1");
    }

    @Test
    void aPartPredictedStillRunning_isNotPinned_whereTheFreeMemoryToldSinceItsRequestsStartedLeavesNoRoomForIt() {
        LiveServers servers = s0BusyOfThree(20.0);
        int p = servers.pool(P_POOL);
        servers.loadingPart(0, p, "big", 30, T + 100, 0.2); // predicted to start on s0 at T + 300 ms
        servers.loadingPart(0, p, "big", 30, T + 150, 0.5); // behind it: at T + 650 ms
        freeOnThree(servers, T + 250, 25, 30, 20);

        int before = servers.pickPart(p, new int[0], 0, 1e9, 30, new Footprint(), T + 500, new SplittableRandom(1));
        assertThat(servers.id(before)).as("s0's free memory is as of before the request was to start: it says nothing"
                + " of it, and the part is taken as pinned there").isEqualTo("s0");
        servers.freeMemoryBytes(0, 25, T + 400);
        int after = servers.pickPart(p, new int[0], 0, 1e9, 30, new Footprint(), T + 500, new SplittableRandom(1));
        assertThat(servers.id(after)).as("25 bytes free since the first request was to start: 30 more pinned would pass"
                + " s0's 40, so it finished early, and the part is not pinned there (though the second request was to"
                + " start later); s1, further behind, has its bytes free").isEqualTo("s1");
    }

    /**
     * Three servers of 40 bytes at $10^9$ ops/s reporting at T, loads of 1 s plus 10 bytes per second: s0 with one
     * request and 10 s of work, s1 with {@code s1Backlog} s (one request when above 0), s2 idle.
     */
    private static LiveServers s0BusyOfThree(double s1Backlog) {
        LiveServers servers = new LiveServers(4, 0, 1, LiveServers.NO_LIVENESS_TIMEOUT);
        servers.coldStart(new ColdStartCost(1, 10));
        servers.report("s0", true, 1e9, 1, 10.0, List.of(), "gpu", 40, T, 0);
        servers.report("s1", true, 1e9, s1Backlog > 0 ? 1 : 0, s1Backlog, List.of(), "gpu", 40, T, 0);
        servers.report("s2", true, 1e9, 0, 0.0, List.of(), "gpu", 40, T, 0);
        return servers;
    }

    /** s0, s1 and s2's free memory as of {@code at}. */
    private static void freeOnThree(LiveServers servers, long at, double s0, double s1, double s2) {
        servers.freeMemoryBytes(0, s0, at);
        servers.freeMemoryBytes(1, s1, at);
        servers.freeMemoryBytes(2, s2, at);
    }

    @Test
    void aModelThatFitsAServer_isPlacedByItsOwnPool_asBefore() {
        ControllerPlacement big = placement();
        LiveServers servers = new LiveServers(4, 0, 1, LiveServers.NO_LIVENESS_TIMEOUT);
        servers.coldStart(new ColdStartCost(1, 10));
        for (int s = 0; s < 8; s++) {
            servers.report("s" + s, true, 1e9, 0, 0.0, List.of(), "gpu", 100, T, 0);
        }
        int[] out = big.place(servers, T, new SplittableRandom(3));
        assertThat(servers.holdsParts(out[0])).isFalse();
        assertThat(servers.holdsParts(out[2])).isFalse();
    }
}
