package dev.nona.calibration;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The outcomes of one window, accumulated per model ({@link ModelTally}) and per server ({@link ServerTally}),
 * and the {@link CalibrationReport} they give. Only ok outcomes feed the JCT and the servers' figures: a failed
 * request's parts say nothing reliable about a server's speed. Memory: one tally per model and per server seen in
 * the window (a model tally holds a sketch of at most {@link QuantileSketch#DEFAULT_MAX_BUCKETS} buckets). Not
 * thread safe.
 */
public final class CalibrationWindow {
    /**
     * The window's contents, to checkpoint and restore it.
     *
     * @param models  per model
     * @param servers per server
     */
    public record State(Map<String, ModelTally.State> models, Map<String, ServerTally> servers,
            Map<Long, JctTally> versions) {
        public State {
            models = Map.copyOf(models);
            servers = Map.copyOf(servers);
            versions = versions == null ? Map.of() : Map.copyOf(versions); // null: a checkpoint from before versions
        }
    }

    private final TreeMap<String, ModelTally> models = new TreeMap<>();
    private final TreeMap<String, ServerTally> servers = new TreeMap<>();
    private final TreeMap<Long, JctTally> versions = new TreeMap<>();

    public static CalibrationWindow restore(State state) {
        CalibrationWindow w = new CalibrationWindow();
        state.models().forEach((m, s) -> w.models.put(m, ModelTally.restore(s)));
        w.servers.putAll(state.servers());
        w.versions.putAll(state.versions());
        return w;
    }

    public State state() {
        Map<String, ModelTally.State> m = new TreeMap<>();
        models.forEach((name, tally) -> m.put(name, tally.state()));
        return new State(m, servers, versions);
    }

    /** True when nothing was added. */
    public boolean isEmpty() {
        return models.isEmpty() && servers.isEmpty() && versions.isEmpty();
    }

    /** An ok outcome of {@code model} and the parts it ran. */
    public void ok(String model, double observedJctSeconds, double predictedJctSeconds, List<PartObservation> parts) {
        tally(model).ok(observedJctSeconds, predictedJctSeconds);
        for (PartObservation part : parts) {
            servers.merge(part.server(), ServerTally.EMPTY.plus(part), (old, one) -> old.plus(part));
        }
    }

    /** An ok outcome of a decision sampled from table {@code tableVersion}: how that table did. */
    public void version(long tableVersion, double observedJctSeconds, double predictedJctSeconds) {
        versions.merge(tableVersion, JctTally.EMPTY.plus(observedJctSeconds, predictedJctSeconds), JctTally::plus);
    }

    public void failed(String model) {
        tally(model).failed();
    }

    public void timedOut(String model) {
        tally(model).timedOut();
    }

    /** A decision of {@code model} that got no outcome within the bound. */
    public void missing(String model) {
        tally(model).missing();
    }

    /** An outcome of {@code model} whose decision never came. */
    public void unmatched(String model) {
        tally(model).unmatched();
    }

    /** The figures of the window so far. */
    public CalibrationReport report() {
        TreeMap<String, ModelCalibration> perModel = new TreeMap<>();
        ModelTally all = new ModelTally();
        models.forEach((name, tally) -> {
            perModel.put(name, tally.result());
            all.merge(tally);
        });
        return new CalibrationReport(perModel, all.result(), servers, versions);
    }

    private ModelTally tally(String model) {
        return models.computeIfAbsent(model, m -> new ModelTally());
    }
}
