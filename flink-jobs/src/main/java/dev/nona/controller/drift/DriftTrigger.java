package dev.nona.controller.drift;

import java.util.Map;
import java.util.TreeMap;

/**
 * The detector's verdict that the current table should be re-optimised.
 *
 * @param windowEnd      event time of the window that triggered it
 * @param cause          {@code rate} or the cluster change, e.g. {@code cluster: server s3 down}
 * @param rates          the rates to solve for (copied)
 * @param relativeChange per drifting model, its relative change from the baseline (copied)
 */
public record DriftTrigger(long windowEnd, String cause, Map<String, Double> rates, Map<String, Double> relativeChange) {
    public DriftTrigger {
        rates = new TreeMap<>(rates);
        relativeChange = new TreeMap<>(relativeChange);
    }
}
