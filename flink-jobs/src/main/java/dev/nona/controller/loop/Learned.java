package dev.nona.controller.loop;

import dev.nona.calibration.JctTally;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one calibration window taught the control loop (from the outcomes joined with their decisions).
 *
 * @param windowEnd   end of the calibration window, epoch ms (processing time)
 * @param opsPerSecond per server with enough timed parts, its effective speed: ops over observed compute seconds
 * @param versions    per table version, the ok outcomes of its decisions in the window
 */
public record Learned(long windowEnd, Map<String, Double> opsPerSecond, Map<Long, JctTally> versions) {
    public Learned {
        opsPerSecond = new TreeMap<>(opsPerSecond);
        versions = new TreeMap<>(versions);
    }
}
