package dev.nona.sim.experiment;

/** One of the paper's evaluations, regenerated as CSV, PNG plots and a markdown summary in its output folder. */
public interface Experiment {
    String name();

    /** One line: what it shows. */
    String description();

    void run(ExperimentContext context);
}
