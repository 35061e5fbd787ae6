package dev.nona.sim;

/** What a job class is: a model's inference DAG, or one of the paper's two kinds of background job. */
public enum JobKind {
    /** A model's contracted DAG. */
    INFERENCE,
    /** One task with compute demand and no communication (Nona, Section IV-A). */
    BACKGROUND_COMPUTE,
    /** One transfer on the bottleneck link and no compute demand (Nona, Section IV-A). */
    BACKGROUND_COMM
}
