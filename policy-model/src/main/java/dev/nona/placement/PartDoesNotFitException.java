package dev.nona.placement;

/**
 * A part of a request fits no live server (its bytes, beside the request's other parts there, exceed every live
 * server's memory): the request cannot be placed. The caller turns it into a dead letter naming it.
 */
public final class PartDoesNotFitException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public PartDoesNotFitException(String message) {
        super(message);
    }
}
