package dev.nona.sim.experiment;

import dev.nona.sim.modelaware.AdaptiveSweepExperiment;
import dev.nona.sim.modelaware.BreakEvenExperiment;
import dev.nona.sim.modelaware.ThesisTablesExperiment;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** The experiments by name (one line each to add one). */
public final class Experiments {
    private static final Map<String, Experiment> ALL = new LinkedHashMap<>();

    static {
        add(new Fig3LoadSweep());
        add(new HeadlineSeeds());
        add(new Fig4Bandwidth());
        add(new Fig5Cdf());
        add(new Table3SolveTime());
        add(new Robustness());
        add(new ModelVsSim());
        add(new Md1Check());
        add(new Quality());
        add(new ThesisTablesExperiment());
        add(new BreakEvenExperiment());
        add(new AdaptiveSweepExperiment());
    }

    private Experiments() {
    }

    private static void add(Experiment e) {
        ALL.put(e.name(), e);
    }

    public static Set<String> names() {
        return ALL.keySet();
    }

    public static Experiment get(String name) {
        Experiment e = ALL.get(name);
        if (e == null) {
            throw new IllegalArgumentException("experiment '" + name + "' is unknown; known: " + String.join(", ", names()));
        }
        return e;
    }
}
