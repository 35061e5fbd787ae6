package dev.nona.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

final class ServerRulesTest {
    private static final long T = 1_000;
    private static final List<String> TASKS = List.of("a1", "a2", "b", "c", "d", "e", "f", "g");

    /** Servers a, b, c, d, idle, 1 Gops/s, warm for m. */
    private static LiveServers servers() {
        LiveServers servers = new LiveServers(2, 0, 1, LiveServers.NO_LIVENESS_TIMEOUT);
        for (String id : List.of("a", "b", "c", "d")) {
            servers.report(id, true, 1e9, 0, 0.0, List.of("m"), T, 0);
        }
        return servers;
    }

    private static ServerRules rules(OperatorRules r, LiveServers servers) {
        ServerRules rules = new ServerRules();
        rules.update(r, servers);
        return rules;
    }

    /** Places a request under the rules (a local one: one server) and counts it; returns the server's id. */
    private static String placeLocal(ServerRules rules, LiveServers servers, String tenant, long t, SplittableRandom rng) {
        ControllerPlacement local = ControllerPlacement.local("m", List.of("x"), 1e9);
        ServerRules.Admission a = rules.admit(servers, "m", tenant, t);
        assertThat(a.admitted()).as("%s", a.refusal()).isTrue();
        servers.restrict(a.filter());
        int s = local.place(servers, t, rng)[0];
        servers.restrict(null);
        rules.placed(tenant, t);
        return servers.id(s);
    }

    @Test
    void noRules_admitAnyServer_withoutAFilter() {
        LiveServers servers = servers();
        ServerRules rules = rules(OperatorRules.NONE, servers);
        ServerRules.Admission a = rules.admit(servers, "m", "t", T);
        assertThat(a.admitted()).isTrue();
        assertThat(a.filter()).isNull();
    }

    @Test
    void drain_serverGetsNoNewStages_untilUndrained_evenIfItReportsAgain() {
        LiveServers servers = servers();
        ServerRules rules = rules(new OperatorRules(Set.of("a", "later"), Map.of(), Map.of()), servers);
        assertThat(servers.upCount()).isEqualTo(3);
        assertThat(servers.isDrained(servers.indexOf("a"))).isTrue();
        servers.report("a", true, 1e9, 0, 0.0, List.of("m"), T + 1, 0); // a report does not undrain
        servers.report("later", true, 1e9, 0, 0.0, List.of("m"), T, 0); // drained before it first reported
        assertThat(servers.upCount()).isEqualTo(3);
        assertThat(servers.meanOpsPerSecond()).isEqualTo(1e9);
        SplittableRandom rng = new SplittableRandom(1);
        for (int i = 0; i < 200; i++) {
            assertThat(placeLocal(rules, servers, "t", T + i, rng)).isNotIn("a", "later");
        }
        rules.update(OperatorRules.NONE, servers);
        assertThat(servers.upCount()).isEqualTo(5);
        assertThat(servers.isDrained(servers.indexOf("a"))).isFalse();
    }

    @Test
    void pin_distributedRequest_everyPartOnThePinnedServers_evenWhenItHasMorePartsThanThem() {
        LiveServers servers = servers();
        ServerRules rules = rules(new OperatorRules(Set.of(), Map.of("m", Set.of("b", "c")), Map.of()), servers);
        Map<String, Double> ops = new HashMap<>();
        TASKS.forEach(t -> ops.put(t, 1e9));
        ControllerPlacement placement = ControllerPlacement.of(new PlacementSampler(PlacementSamplerTest.table(5)), "m", ops);
        SplittableRandom rng = new SplittableRandom(7);
        Set<String> used = new TreeSet<>();
        for (int i = 0; i < 500; i++) {
            ServerRules.Admission a = rules.admit(servers, "m", "t", T + i);
            servers.restrict(a.filter());
            for (int s : placement.place(servers, T + i, rng)) {
                used.add(servers.id(s));
            }
            servers.restrict(null);
        }
        assertThat(used).containsExactly("b", "c");
        // another model is not pinned
        assertThat(rules.admit(servers, "other", "t", T).filter()).isNull();
    }

    @Test
    void pin_noPinnedServerUp_isRefusedWithTheReason() {
        LiveServers servers = servers();
        ServerRules rules = rules(new OperatorRules(Set.of("b"), Map.of("m", Set.of("b", "e")), Map.of()), servers);
        ServerRules.Admission a = rules.admit(servers, "m", "t", T);
        assertThat(a.admitted()).isFalse();
        assertThat(a.refusal()).isEqualTo("model 'm' is pinned to [b, e] and none of them is up");
    }

    /** The worked example of the class comment. */
    @Test
    void tenantShare_workedExample_ownServersAlwaysItsAlone_andOverItsShareOnlyItsOwn() {
        LiveServers servers = servers();
        ServerRules rules = rules(new OperatorRules(Set.of(), Map.of(),
                Map.of("t", new OperatorRules.TenantRule(Set.of("a", "b"), 0.5))), servers);
        SplittableRandom rng = new SplittableRandom(3);
        // another tenant never uses a or b
        for (int i = 0; i < 100; i++) {
            assertThat(placeLocal(rules, servers, "x", T, rng)).isIn("c", "d");
        }
        // 100 of x's requests, none of t's in this second: t's share is 0, t may use all four (the least loaded: a, b)
        assertThat(rules.share("t", T)).isZero();
        assertThat(placeLocal(rules, servers, "t", T, rng)).isIn("a", "b", "c", "d");
        // t places 150 more requests: share 151 / 251 = 0.6016 > 0.5: only a and b
        for (int i = 0; i < 150; i++) {
            placeLocal(rules, servers, "t", T, rng);
        }
        assertThat(rules.share("t", T)).isEqualTo(151.0 / 251);
        for (int i = 0; i < 100; i++) {
            assertThat(placeLocal(rules, servers, "t", T, rng)).isIn("a", "b");
        }
        // the window forgets: 10 s later nothing counts, t may use c and d again
        assertThat(rules.share("t", T + 10_000)).isZero();
        // t: 251 of 351 requests (0.715); over its share with a and b down: refused with the reason
        servers.report("a", false, 1e9, 0, 0.0, List.of(), T + 1, 0);
        servers.report("b", false, 1e9, 0, 0.0, List.of(), T + 1, 0);
        ServerRules.Admission refused = rules.admit(servers, "m", "t", T);
        assertThat(refused.admitted()).isFalse();
        assertThat(refused.refusal()).isEqualTo("tenant 't' is over its share (0.715 > 0.500 of the requests placed in "
                + "the last 10 s) and none of its servers [a, b] is up");
    }

    @Test
    void tenantRule_everyUpServerOwnedByAnother_refusesTheRequest() {
        LiveServers servers = servers();
        ServerRules rules = rules(new OperatorRules(Set.of("d"), Map.of(),
                Map.of("t", new OperatorRules.TenantRule(Set.of("a", "b", "c"), 1))), servers);
        ServerRules.Admission a = rules.admit(servers, "m", "x", T);
        assertThat(a.admitted()).isFalse();
        assertThat(a.refusal()).contains("every server that is up is owned by another tenant's rule");
    }

    @Test
    void shares_workedExample_countTheLastTenWholeSeconds() {
        TenantShares shares = new TenantShares();
        shares.track("t");
        shares.add("t", 3, 1_000);   // second 1
        shares.add("x", 1, 1_999);   // second 1
        shares.add("x", 4, 10_500);  // second 10
        assertThat(shares.share("t", 10_999)).isEqualTo(3.0 / 8); // seconds 1..10
        assertThat(shares.share("t", 11_000)).isZero();           // seconds 2..11: second 1 left the window
        shares.add("t", 2, 500);     // second 0: its bucket holds second 10, so it is older than the window: dropped
        assertThat(shares.share("t", 10_999)).isEqualTo(3.0 / 8); // unchanged
        assertThat(shares.share("other", 10_999)).isZero();
    }

    @Test
    void rules_serverOwnedByTwoTenants_isRejected() {
        assertThatThrownBy(() -> new OperatorRules(Set.of(), Map.of(), Map.of(
                "t", new OperatorRules.TenantRule(Set.of("a"), 1), "u", new OperatorRules.TenantRule(Set.of("a"), 1))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("server 'a' is owned by tenants");
    }
}
