package dev.nona.placement;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The operator's standing rules for placement, as its commands left them: drained servers (no new stages), models
 * pinned to sets of servers, and tenant rules. Immutable; {@link ServerRules} applies them to each request.
 *
 * <p>A tenant rule gives a tenant its own servers and a maximum share $\sigma$ of the cluster. Its own servers are
 * its alone: no other tenant's stages go there. Under its share, a tenant's stages go to its own servers or to the
 * servers no tenant owns; over its share (see {@link TenantShares}), to its own servers only.
 *
 * @param drained the drained server ids
 * @param pins    per model, the servers its stages are kept on (a non-empty set)
 * @param tenants per tenant, its rule
 */
public record OperatorRules(Set<String> drained, Map<String, Set<String>> pins, Map<String, TenantRule> tenants) {
    /** No rule: every live server for every request. */
    public static final OperatorRules NONE = new OperatorRules(Set.of(), Map.of(), Map.of());

    /**
     * A tenant's own servers and its maximum share.
     *
     * @param servers  its own servers, not empty
     * @param maxShare its maximum share of the requests placed (see {@link TenantShares}), in $(0, 1]$
     */
    public record TenantRule(Set<String> servers, double maxShare) {
        public TenantRule {
            servers = Set.copyOf(new TreeSet<>(servers));
            if (servers.isEmpty()) {
                throw new IllegalArgumentException("a tenant rule's servers must not be empty");
            }
            if (!(maxShare > 0 && maxShare <= 1)) {
                throw new IllegalArgumentException("tenant rule's maximum share (" + maxShare + ") must be in (0, 1]");
            }
        }
    }

    public OperatorRules {
        drained = Set.copyOf(drained);
        Map<String, Set<String>> p = new TreeMap<>();
        pins.forEach((model, servers) -> {
            if (servers.isEmpty()) {
                throw new IllegalArgumentException("model '" + model + "' is pinned to no server");
            }
            p.put(model, Set.copyOf(servers));
        });
        pins = Map.copyOf(p);
        tenants = Map.copyOf(tenants);
        Map<String, String> owner = new HashMap<>();
        new TreeMap<>(tenants).forEach((tenant, rule) -> new TreeSet<>(rule.servers()).forEach(s -> {
            String other = owner.put(s, tenant);
            if (other != null) {
                throw new IllegalArgumentException("server '" + s + "' is owned by tenants '" + other + "' and '"
                        + tenant + "'");
            }
        }));
    }

    /** Whether no rule restricts any request (drains aside, which {@link LiveServers#setDrained} applies). */
    public boolean unrestricted() {
        return pins.isEmpty() && tenants.isEmpty();
    }

    /** Per server owned by a tenant rule, its tenant. $O(\text{owned servers})$. */
    public Map<String, String> owners() {
        Map<String, String> owner = new HashMap<>();
        tenants.forEach((tenant, rule) -> rule.servers().forEach(s -> owner.put(s, tenant)));
        return owner;
    }
}
