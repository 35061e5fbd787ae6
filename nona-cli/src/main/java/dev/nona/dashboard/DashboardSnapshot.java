package dev.nona.dashboard;

import java.util.List;
import java.util.Map;

/**
 * What the page shows, as of one moment: everything read from the topics up to {@code positions}. Served as JSON
 * on {@code /api/state}; numbers that are unknown (no outcome yet, a fallback table's objective) are null.
 *
 * @param bootstrap   the Kafka cluster read
 * @param generatedAt when the snapshot was taken, epoch milliseconds (the dashboard's clock)
 * @param positions   per {@code topic-partition}, the offset up to which records are included (the next offset to read)
 * @param totals      record counts per topic (decisions, outcomes, events, dead letters, tables, telemetry,
 *                    unreadable)
 * @param models      per model, in name order
 * @param rates       decided requests per second of event time, per model
 * @param marks       drift events and table publications, to mark on the rate chart
 * @param tables      the current table first, then the one before it (at most two)
 * @param servers     per server, in id order
 * @param drained     the servers drained by operator commands, as a line ("drained: s-1, s-3" or "drained: none")
 * @param events      the last controller events, newest first
 * @param jctWindowSeconds the window of the models' predicted and observed JCTs: outcomes completed in the last this
 *                    many seconds of event time, up to the newest completion read
 * @param broker      whether the reader is connected to the Kafka cluster, and since when: while it is not, the
 *                    figures are those read before, and servers show silent because their reports cannot be read
 */
public record DashboardSnapshot(String bootstrap, long generatedAt, Map<String, Long> positions,
        Map<String, Long> totals, List<ModelView> models, Chart rates, List<Mark> marks, List<TableView> tables,
        List<ServerView> servers, String drained, List<EventView> events, int jctWindowSeconds, Broker broker) {

    /**
     * The reader's connection to the Kafka cluster.
     *
     * @param connected    whether the reader holds a connection to a broker now (its consumer's
     *                     {@code connection-count} above 0)
     * @param sinceMillis  when it last changed, epoch milliseconds (the dashboard's clock); 0 before the first check
     * @param lastRecordAt when the reader last got a record, epoch milliseconds (0: none yet)
     */
    public record Broker(boolean connected, long sinceMillis, long lastRecordAt) {
        /** Before the reader's first check. */
        public static final Broker UNKNOWN = new Broker(false, 0, 0);
    }

    /**
     * One model. The three JCT figures are over the same requests: those whose {@code ok} outcome completed in the
     * last {@link #jctWindowSeconds} and whose decision was read ({@link JctPairs}).
     *
     * @param name                      the model
     * @param decisions                 decisions read for it
     * @param ratePerSecond             decided requests per second over the last full seconds of event time
     * @param tableRatePerSecond        the rate the current table was solved for (null when it has none)
     * @param outcomes                  outcomes read for it (any status)
     * @param jctRequests               the requests the JCT figures are over
     * @param predictedMeanJctSeconds   their decisions' mean {@code predictedJctSeconds} (null when none)
     * @param observedMeanJctSeconds    their outcomes' mean {@code observedJctSeconds} (null when none)
     * @param observedOverPredicted     the observed mean over the predicted mean (null when none)
     * @param calibrationRatio          the controller's observed/predicted ratio from the newest {@code CALIBRATION}
     *                                  event (null when none): its own window, against the table's JCT
     * @param predictedJctSeconds       the newest decision's predicted JCT (null before the first); not comparable
     *                                  with the observed mean, which is over other requests
     */
    public record ModelView(String name, long decisions, double ratePerSecond, Double tableRatePerSecond,
            long outcomes, long jctRequests, Double predictedMeanJctSeconds, Double observedMeanJctSeconds,
            Double observedOverPredicted, Double calibrationRatio, Double predictedJctSeconds) {}

    /** Series over epoch seconds: {@code values.get(key).get(i)} belongs to {@code seconds.get(i)}. */
    public record Chart(List<Long> seconds, Map<String, List<Long>> values) {}

    /** A moment to mark on the rate chart: {@code kind} is {@code DRIFT_DETECTED} or {@code TABLE_PUBLISHED}. */
    public record Mark(String kind, long timeMillis, String label) {}

    /**
     * A placement table: its groupings (choices) per model and subgraph with their probabilities.
     *
     * @param version             the version decisions name
     * @param createdAt           when it was published, epoch milliseconds
     * @param cause               why it was solved
     * @param fallback            the safe fallback table (no groupings)
     * @param linkLoad            predicted link load $\rho$ (null for the fallback)
     * @param objective           $\sum_j \beta_j \tau_j$ (null for the fallback)
     * @param models              per model its rate, predicted JCT and subgraphs
     */
    public record TableView(long version, long createdAt, String cause, boolean fallback, Double linkLoad,
            Double objective, List<TableModel> models) {}

    /** One model of a table. */
    public record TableModel(String name, Double ratePerSecond, Double predictedJctSeconds, List<SubgraphView> subgraphs) {}

    /**
     * One subgraph: its most probable choices (at most {@link TableViews#MAX_CHOICES}), {@code omitted} the rest.
     */
    public record SubgraphView(String root, String sink, List<ChoiceView> choices, int omitted) {}

    /** A grouping of the subgraph's tasks into parts (each part on its own server) and its probability. */
    public record ChoiceView(List<List<String>> parts, double probability) {}

    /**
     * One server.
     *
     * @param id              the server
     * @param state           {@code up}, {@code down} (its report says so) or {@code silent} (no report within the
     *                        liveness timeout)
     * @param stagesPerSecond   stages (tasks) placed on it per second over the last full seconds of event time
     * @param requestsPerSecond requests with at least one stage on it, per second, over the same seconds
     * @param ongoingRequests as last reported
     * @param warmModels      models it holds warm, as last reported: whole, by the catalog's bytes (as the
     *                        controller counts them)
     * @param partlyHeldModels models it holds only some of (cold for a request of the whole model)
     * @param lastReportAt    when its last report was sent (the record's timestamp), epoch milliseconds
     */
    public record ServerView(String id, String state, double stagesPerSecond, double requestsPerSecond,
            int ongoingRequests,
            List<String> warmModels, List<String> partlyHeldModels, long lastReportAt) {}

    /** A controller event, with its details. */
    public record EventView(String type, long time, Map<String, Object> details) {}
}
