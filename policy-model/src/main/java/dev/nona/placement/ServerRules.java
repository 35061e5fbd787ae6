package dev.nona.placement;

import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * One placer's application of the {@link OperatorRules} to each request: which servers the request may use
 * ({@link #admit}, a {@link ServerFilter} for {@link LiveServers#restrict}), or why it cannot be placed. The Flink
 * placement operator runs it before every decision, table-driven, fallback and startup-buffer ones alike, and the
 * simulator can run the same class.
 *
 * <p>The rules for a request of model $m$ and tenant $u$ (drained servers are not live at all:
 * {@link #update} drains them in {@link LiveServers}):
 * <ol>
 *   <li>a pinned model's stages go only to its pinned servers;</li>
 *   <li>a server owned by a tenant rule gets only that tenant's stages;</li>
 *   <li>a tenant with a rule whose share ({@link TenantShares}: its requests over all requests this placer placed
 *       in the last 10 s) is above its maximum gets only its own servers;</li>
 *   <li>a request with no live server left by these rules is refused, with the reason (the operator makes it a
 *       dead letter).</li>
 * </ol>
 * Worked example: servers a, b, c, d; tenant t owns a and b with maximum share 0.5. A request of tenant x may use c
 * and d; of t, while t's share is at most 0.5, a, b, c and d; once t's are 6 of the last 10 requests placed (0.6 &gt; 0.5),
 * a and b only; with a and b down, t's request is refused.
 *
 * <p>Cost: with no pin and no tenant rule, {@link #admit} is $O(1)$ and returns no filter (placement is unchanged);
 * else $O(\text{pinned or owned servers})$ to check that an allowed server is live, and each pick skips the
 * servers the filter refuses ({@link ServerLedger}). Not thread-safe: one per placer.
 */
public final class ServerRules {
    /**
     * What a request may do: place on the servers {@code filter} allows ({@code null}: any live server), or nothing,
     * for {@code refusal}.
     */
    public record Admission(ServerFilter filter, String refusal) {
        static final Admission ANY = new Admission(null, null);

        public boolean admitted() {
            return refusal == null;
        }
    }

    private final TenantShares shares = new TenantShares();
    private final RequestFilter filter = new RequestFilter();
    private OperatorRules rules = OperatorRules.NONE;
    private Map<String, String> owners = Map.of();

    /** The rules from now on; drains (and undrains) {@code servers} as they say. */
    public void update(OperatorRules next, LiveServers servers) {
        for (String tenant : rules.tenants().keySet()) {
            if (!next.tenants().containsKey(tenant)) {
                shares.untrack(tenant);
            }
        }
        next.tenants().keySet().forEach(shares::track);
        rules = next;
        owners = next.owners();
        servers.setDrained(next.drained());
    }

    public OperatorRules rules() {
        return rules;
    }

    /**
     * The servers a request of {@code model} and {@code tenant} at {@code eventTimeMillis} may use on
     * {@code servers}, or why none: see the class comment. The filter is reused by the next call.
     */
    public Admission admit(LiveServers servers, String model, String tenant, long eventTimeMillis) {
        Set<String> pin = rules.pins().get(model);
        if (pin == null && owners.isEmpty()) {
            return Admission.ANY;
        }
        OperatorRules.TenantRule own = rules.tenants().get(tenant);
        double share = own == null ? 0 : shares.share(tenant, eventTimeMillis);
        boolean over = own != null && share > own.maxShare();
        filter.set(servers, pin, tenant, over);
        if (over) {
            if (anyLive(servers, own.servers())) {
                return new Admission(filter, null);
            }
            return refuse(String.format(Locale.ROOT, "tenant '%s' is over its share (%.3f > %.3f of the requests placed "
                    + "in the last %d s) and none of its servers %s is up%s", tenant, share, own.maxShare(),
                    TenantShares.WINDOW_SECONDS, new TreeSet<>(own.servers()),
                    pin == null ? "" : " among model '" + model + "''s pinned servers " + new TreeSet<>(pin)));
        }
        if (pin != null) {
            if (anyLive(servers, pin)) {
                return new Admission(filter, null);
            }
            return refuse("model '" + model + "' is pinned to " + new TreeSet<>(pin) + " and none of them is up"
                    + (owners.isEmpty() ? "" : " and open to tenant '" + tenant + "'"));
        }
        int others = 0;
        for (Map.Entry<String, String> e : owners.entrySet()) {
            int s = servers.indexOf(e.getKey());
            if (s >= 0 && servers.isLive(s) && !e.getValue().equals(tenant)) {
                others++;
            }
        }
        if (servers.upCount() > others) {
            return new Admission(filter, null);
        }
        return refuse("every server that is up is owned by another tenant's rule (tenant '" + tenant
                + "' may use its own servers and those no tenant owns)");
    }

    /** Counts a request of {@code tenant} placed at {@code eventTimeMillis}. $O(1)$. */
    public void placed(String tenant, long eventTimeMillis) {
        shares.add(tenant, 1, eventTimeMillis);
    }

    /** {@code tenant}'s share now (see {@link TenantShares}). */
    public double share(String tenant, long eventTimeMillis) {
        return shares.share(tenant, eventTimeMillis);
    }

    private boolean anyLive(LiveServers servers, Set<String> ids) {
        for (String id : ids) {
            int s = servers.indexOf(id);
            if (s >= 0 && servers.isLive(s) && filter.allows(s)) {
                return true;
            }
        }
        return false;
    }

    private static Admission refuse(String reason) {
        return new Admission(null, reason);
    }

    /** The rules of one request, reused. */
    private final class RequestFilter implements ServerFilter {
        private LiveServers servers;
        private Set<String> pin;
        private String tenant;
        private boolean over;

        void set(LiveServers servers, Set<String> pin, String tenant, boolean over) {
            this.servers = servers;
            this.pin = pin;
            this.tenant = tenant;
            this.over = over;
        }

        @Override
        public boolean allows(int server) {
            String id = servers.id(server);
            if (pin != null && !pin.contains(id)) {
                return false;
            }
            String owner = owners.get(id);
            return over ? tenant.equals(owner) : owner == null || owner.equals(tenant);
        }
    }

}
