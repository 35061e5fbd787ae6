package dev.nona.placement;

import java.util.Arrays;

/**
 * Why one request went where it went, as {@link ControllerPlacement#place(LiveServers, long,
 * java.util.random.RandomGenerator, PlacementExplanation)} saw it at the pick, before the request was recorded in the
 * ledger. A <em>part</em> is the request's stages on one server (parts in order of their first task); per part: the
 * server, its stages, whether the model was warm there by the server's latest report, its predicted backlog
 * $B_s(t)$ (seconds of work, {@link ServerLedger}) and predicted ongoing requests, and whether those were under the
 * target ({@code placement.target-ongoing-requests}). Per request: the triplet drawn for every subgraph with the
 * product of their probabilities $\prod_g \theta_g(\text{choice}_g)$, and the request's own predicted JCT:
 * $$\hat T = \tau + \max_{\text{parts}} B_s(t),$$
 * $\tau$ the table's predicted JCT $\tau_j$ of the model (Nona, Eq. (XII); a local placement: the DAG's
 * operations over the chosen server's rate, $\sum_t p^t/\nu_s$) plus the longest predicted backlog among the
 * request's servers: the wait its most delayed part is predicted to have before it can start. With
 * {@code server-queueing} or {@code controller-mapping} cost models $\tau_j$ already holds the expected server wait of
 * an average request, so $\hat T$ then counts that expectation once more: it is an upper estimate.
 *
 * <p>Mutable and reused (one per placer, filled per request; {@link #reset} does not allocate once its arrays are
 * large enough). Not thread-safe.
 */
public final class PlacementExplanation {
    private int parts;
    private int[] server = new int[4];
    private int[] stages = new int[4];
    private boolean[] warm = new boolean[4];
    private double[] backlog = new double[4];
    private int[] ongoing = new int[4];
    private int[] partOfTask = new int[16];
    private int tasks;
    private int[] choices = new int[4];
    private int choiceCount;
    private double choiceProbability = 1;
    private double tableJctSeconds;
    private int target = 1;
    /** Whether the servers gave a class or memory: then each part names its server's class and predicted load. */
    private boolean described;
    private String[] serverClass = new String[4];
    private double[] bytes = new double[4];
    private double[] coldStartSeconds = new double[4];

    /** Whether the servers gave a class or memory ({@link #serverClass} and {@link #coldStartSeconds} then apply). */
    public boolean described() {
        return described;
    }

    /** The class of part {@code p}'s server by its latest report, or null when it gives none. */
    public String serverClass(int p) {
        return serverClass[p];
    }

    /** Part {@code p}'s bytes: the sum of its tasks' (0 when not given). */
    public double bytes(int p) {
        return bytes[p];
    }

    /** Whether part {@code p} is predicted to start cold: its server does not hold the model. */
    public boolean coldStart(int p) {
        return !warm[p];
    }

    /** The predicted seconds to load part {@code p} (0 when warm, or when cold starts are not modelled). */
    public double coldStartSeconds(int p) {
        return coldStartSeconds[p];
    }

    /** Parts of the latest request: servers it uses. */
    public int parts() {
        return parts;
    }

    /** The server index (of the {@link LiveServers}) of part {@code p}. */
    public int server(int p) {
        return server[p];
    }

    /** Stages (original tasks) of part {@code p}. */
    public int stages(int p) {
        return stages[p];
    }

    /** Whether the model was warm on part {@code p}'s server by its latest report. */
    public boolean warm(int p) {
        return warm[p];
    }

    /** Part {@code p}'s server's predicted backlog at the pick, seconds of work. */
    public double predictedBacklogSeconds(int p) {
        return backlog[p];
    }

    /** Part {@code p}'s server's predicted requests in flight at the pick. */
    public int ongoingRequests(int p) {
        return ongoing[p];
    }

    /** Whether part {@code p}'s server had fewer predicted ongoing requests than the target at the pick. */
    public boolean targetMet(int p) {
        return ongoing[p] < target;
    }

    /** The target of ongoing requests the placement used. */
    public int target() {
        return target;
    }

    /** Original tasks of the request. */
    public int tasks() {
        return tasks;
    }

    /** The part of task {@code t} (in the placer's task order). */
    public int partOf(int t) {
        return partOfTask[t];
    }

    /** Subgraphs whose triplet was drawn (0 for a local placement). */
    public int choiceCount() {
        return choiceCount;
    }

    /** The index, among subgraph {@code g}'s choices in the table, of the triplet drawn. */
    public int choice(int g) {
        return choices[g];
    }

    /** $\prod_g \theta_g(\text{choice}_g)$: the probability of the request's grouping under the table (1 when local). */
    public double choiceProbability() {
        return choiceProbability;
    }

    /** $\tau$: the table's predicted JCT of the model, or a local placement's compute on its server, seconds. */
    public double tableJctSeconds() {
        return tableJctSeconds;
    }

    /** The longest predicted backlog among the request's servers at the pick, seconds. */
    public double waitSeconds() {
        double w = 0;
        for (int p = 0; p < parts; p++) {
            w = Math.max(w, backlog[p]);
        }
        return w;
    }

    /** $\hat T = \tau + \max_{\text{parts}} B_s$ (see the class comment), seconds. */
    public double predictedJctSeconds() {
        return tableJctSeconds + waitSeconds();
    }

    /** Starts a request of {@code tasks} tasks and {@code choiceCount} subgraphs. */
    void reset(int tasks, int choiceCount, int target) {
        this.parts = 0;
        this.tasks = tasks;
        this.choiceCount = choiceCount;
        this.choiceProbability = 1;
        this.target = target;
        this.described = false;
        if (partOfTask.length < tasks) {
            partOfTask = new int[Math.max(tasks, 2 * partOfTask.length)];
        }
        if (choices.length < choiceCount) {
            choices = new int[Math.max(choiceCount, 2 * choices.length)];
        }
    }

    void choice(int g, int choice, double probability) {
        choices[g] = choice;
        choiceProbability *= probability;
    }

    void tableJctSeconds(double seconds) {
        this.tableJctSeconds = seconds;
    }

    /** The part of server {@code s}, or -1 when the request does not use it yet. */
    int partOfServer(int s) {
        for (int p = parts - 1; p >= 0; p--) {
            if (server[p] == s) {
                return p;
            }
        }
        return -1;
    }

    /** A new part on server {@code s} with its facts at the pick; returns its index. */
    int addPart(int s, boolean isWarm, double backlogSeconds, int ongoingRequests) {
        if (parts == server.length) {
            int c = 2 * parts;
            server = Arrays.copyOf(server, c);
            stages = Arrays.copyOf(stages, c);
            warm = Arrays.copyOf(warm, c);
            backlog = Arrays.copyOf(backlog, c);
            ongoing = Arrays.copyOf(ongoing, c);
            serverClass = Arrays.copyOf(serverClass, c);
            bytes = Arrays.copyOf(bytes, c);
            coldStartSeconds = Arrays.copyOf(coldStartSeconds, c);
        }
        bytes[parts] = 0;
        coldStartSeconds[parts] = 0;
        serverClass[parts] = null;
        server[parts] = s;
        stages[parts] = 0;
        warm[parts] = isWarm;
        backlog[parts] = backlogSeconds;
        ongoing[parts] = ongoingRequests;
        return parts++;
    }

    void assignTask(int t, int p) {
        partOfTask[t] = p;
        stages[p]++;
    }

    void assignTask(int t, int p, double taskBytes) {
        assignTask(t, p);
        bytes[p] += taskBytes;
    }

    /** Names each part's server class and its predicted load, once the parts are complete. */
    void describe(LiveServers servers) {
        described = true;
        for (int p = 0; p < parts; p++) {
            serverClass[p] = servers.serverClass(server[p]);
            coldStartSeconds[p] = warm[p] ? 0 : servers.coldStartSeconds(bytes[p]);
        }
    }
}
