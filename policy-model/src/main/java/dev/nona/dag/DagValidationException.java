package dev.nona.dag;

/** A DAG that is not a valid model graph: the message names the field or line and the value. */
public class DagValidationException extends IllegalArgumentException {
    public DagValidationException(String message) {
        super(message);
    }

    public DagValidationException(String message, Throwable cause) {
        super(message, cause);
    }
}
