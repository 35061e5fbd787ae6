package dev.nona.modelaware;

import dev.nona.check.Checks;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Which server holds which model, and how many requests each server has in flight: the thesis's
 * {@code MASched} ledger ({@code modelToProxies}, {@code numOngoingRequests}, {@code targetOngoingRequests}).
 *
 * <p>A model is <em>resident</em> on a server from the moment a request is routed there to load it (the
 * thesis registers the proxy in {@code LocateModelProxy}); it is <em>loaded</em> once the cold start has
 * finished. Each server's residents live in an LRU {@link ModelCache} bounded by its memory, so routing a new
 * model to a full server evicts the least recently used ones.
 *
 * <p>Based on: K. Liu, <i>Enabling Efficient ML Inference in SigmaOS with Model-Aware Scheduling</i>, MEng
 * thesis, MIT, 2025, Sections 4.5, 4.6
 * and 5.4. Not thread-safe: one owner mutates it (an operator's state, or a simulator).
 */
public final class ModelRegistry {
    /** The thesis's default {@code targetOngoingRequests}. */
    public static final int DEFAULT_TARGET_ONGOING_REQUESTS = 3;

    private final int targetOngoingRequests;
    private final Map<String, Server> servers = new LinkedHashMap<>();

    public ModelRegistry(int targetOngoingRequests) {
        this.targetOngoingRequests = Checks.positive(targetOngoingRequests, "targetOngoingRequests");
    }

    public ModelRegistry() {
        this(DEFAULT_TARGET_ONGOING_REQUESTS);
    }

    public int targetOngoingRequests() {
        return targetOngoingRequests;
    }

    /** Registers a server with the memory its model cache may use (the thesis's {@code RegisterMSched}). */
    public void addServer(String server, double memoryMb) {
        Checks.notBlank(server, "server id");
        if (servers.containsKey(server)) {
            throw new IllegalArgumentException("server '" + server + "' is already registered");
        }
        servers.put(server, new Server(new ModelCache(memoryMb)));
    }

    /** The servers, in registration order. */
    public List<String> servers() {
        return List.copyOf(servers.keySet());
    }

    /** Whether the model is resident (loaded or loading) on the server. */
    public boolean isResident(String server, String model) {
        return server(server).cache.contains(model);
    }

    /** Whether the model's cold start on the server has finished. */
    public boolean isLoaded(String server, String model) {
        return server(server).loaded.contains(model);
    }

    /** Servers where the model is resident, in registration order. */
    public List<String> residentServers(String model) {
        List<String> out = new ArrayList<>();
        servers.forEach((id, s) -> {
            if (s.cache.contains(model)) {
                out.add(id);
            }
        });
        return out;
    }

    /** Requests routed to the server whose process has not exited yet. */
    public int ongoing(String server) {
        return server(server).ongoing;
    }

    public boolean underTarget(String server) {
        return ongoing(server) < targetOngoingRequests;
    }

    /**
     * The thesis's {@code LocateModelProxy}: a server holding the model with fewer than
     * {@code targetOngoingRequests} ongoing requests. Where the thesis takes the first such server, this
     * takes the least loaded one (ties by registration order), which spreads load across replicas.
     */
    public Optional<String> locateProxy(String model) {
        return locateProxy(model, server -> true);
    }

    /**
     * {@link #locateProxy(String)} among the servers that {@code eligible} accepts (for example those with free
     * cores): the one rule for "warm, under the target, least loaded", whatever else a caller requires.
     */
    public Optional<String> locateProxy(String model, Predicate<String> eligible) {
        List<String> ids = servers();
        int s = Colocation.locateProxy(ids.size(), i -> isResident(ids.get(i), model), i -> ongoing(ids.get(i)),
                targetOngoingRequests, i -> eligible.test(ids.get(i)));
        return s < 0 ? Optional.empty() : Optional.of(ids.get(s));
    }

    /**
     * Records that the model is (being) placed on the server, evicting LRU models if memory is short.
     *
     * @return the evicted models
     */
    public List<String> assign(String server, ModelProfile model) {
        Server s = server(server);
        List<String> evicted = s.cache.load(model.name(), model.sizeMb());
        s.loaded.removeAll(evicted);
        return evicted;
    }

    /** Records that the model's cold start on the server finished (it is resident from now on). */
    public List<String> markLoaded(String server, ModelProfile model) {
        List<String> evicted = assign(server, model);
        server(server).loaded.add(model.name());
        return evicted;
    }

    /** A request was routed to the server's model replica. */
    public void beginRequest(String server) {
        server(server).ongoing++;
    }

    /** A request routed to the server finished (the thesis's {@code UpdateQueueLength}). */
    public void endRequest(String server) {
        Server s = server(server);
        if (s.ongoing <= 0) {
            throw new IllegalStateException("BUG: server '" + server + "' has no ongoing request to end");
        }
        s.ongoing--;
    }

    /**
     * Replaces what the registry knows of a server with what it reported (the {@code cluster-telemetry} topic):
     * its memory, its requests in flight, and the models it holds loaded (name to size in MB, least recently
     * used first). Registers the server if it is new.
     */
    public void applyTelemetry(String server, double memoryMb, int ongoing, Map<String, Double> loadedModels) {
        Checks.notBlank(server, "server id");
        if (ongoing < 0) {
            throw new IllegalArgumentException("server '" + server + "': ongoing (" + ongoing + ") must be >= 0");
        }
        Server s = new Server(new ModelCache(memoryMb));
        loadedModels.forEach((model, sizeMb) -> {
            s.loaded.removeAll(s.cache.load(model, sizeMb));
            s.loaded.add(model);
        });
        s.ongoing = ongoing;
        servers.put(server, s);
    }

    /** Forgets a server (it left the cluster or went down); unknown servers are ignored. */
    public void removeServer(String server) {
        servers.remove(server);
    }

    /** An immutable copy of the registry's state, for checkpoints and diagnostics. */
    public Snapshot snapshot() {
        List<ServerState> out = new ArrayList<>();
        servers.forEach((id, s) -> out.add(new ServerState(id, s.cache.capacityMb(), s.ongoing,
                s.cache.models().stream().map(m -> new Resident(m, s.cache.sizeMb(m), s.loaded.contains(m))).toList())));
        return new Snapshot(targetOngoingRequests, out);
    }

    /** Rebuilds a registry from a {@link #snapshot()}. */
    public static ModelRegistry restore(Snapshot snapshot) {
        ModelRegistry r = new ModelRegistry(snapshot.targetOngoingRequests());
        for (ServerState st : snapshot.servers()) {
            r.addServer(st.id(), st.memoryMb());
            Server s = r.servers.get(st.id());
            for (Resident m : st.residents()) {
                s.cache.load(m.model(), m.sizeMb());
                if (m.loaded()) {
                    s.loaded.add(m.model());
                }
            }
            s.ongoing = st.ongoing();
        }
        return r;
    }

    /** The registry's state: the target and every server in registration order. */
    public record Snapshot(int targetOngoingRequests, List<ServerState> servers) {
        public Snapshot {
            servers = List.copyOf(servers);
        }
    }

    /** One server's state: memory, requests in flight, resident models least recently used first. */
    public record ServerState(String id, double memoryMb, int ongoing, List<Resident> residents) {
        public ServerState {
            residents = List.copyOf(residents);
        }
    }

    /** A model resident on a server, and whether its cold start has finished. */
    public record Resident(String model, double sizeMb, boolean loaded) {}

    /** The models resident on the server, least recently used first. */
    public List<String> residents(String server) {
        return server(server).cache.models();
    }

    private Server server(String id) {
        Server s = servers.get(id);
        if (s == null) {
            throw new IllegalArgumentException("unknown server '" + id + "'");
        }
        return s;
    }

    private static final class Server {
        final ModelCache cache;
        final Set<String> loaded = new HashSet<>();
        int ongoing;

        Server(ModelCache cache) {
            this.cache = cache;
        }
    }
}
