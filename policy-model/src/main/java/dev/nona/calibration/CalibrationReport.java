package dev.nona.calibration;

import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A window's calibration: per model, over all models, and per server.
 *
 * @param models  per model, by name (copied)
 * @param all     over all models (the p99 from the merged sketches)
 * @param servers  per server that ran a part of an ok outcome, by id (copied)
 * @param versions per table version, the ok outcomes of the decisions it gave (copied)
 */
public record CalibrationReport(SortedMap<String, ModelCalibration> models, ModelCalibration all,
        SortedMap<String, ServerTally> servers, SortedMap<Long, JctTally> versions) {
    public CalibrationReport {
        models = Collections.unmodifiableSortedMap(new TreeMap<>(models));
        servers = Collections.unmodifiableSortedMap(new TreeMap<>(servers));
        versions = Collections.unmodifiableSortedMap(new TreeMap<>(versions));
    }
}
