package dev.nona.workload;

/** A workload that cannot be used: the message names the field (as a path such as {@code models[1].ratePerSecond}) and the value. */
public class WorkloadException extends IllegalArgumentException {
    public WorkloadException(String message) {
        super(message);
    }

    public WorkloadException(String message, Throwable cause) {
        super(message, cause);
    }
}
