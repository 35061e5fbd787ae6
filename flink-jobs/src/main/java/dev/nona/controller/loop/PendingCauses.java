package dev.nona.controller.loop;

/** Where a cluster or catalog change is recorded; the drift detector turns it into a trigger at the next window end. */
@FunctionalInterface
interface PendingCauses {
    void markPending(String cause) throws Exception;
}
