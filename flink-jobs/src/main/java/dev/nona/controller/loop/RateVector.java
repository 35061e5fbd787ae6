package dev.nona.controller.loop;

import java.util.Map;
import java.util.TreeMap;

/** Requests/s per model in one closed window, as the control loop collects them (copied). */
public record RateVector(Map<String, Double> rates) {
    public RateVector {
        rates = new TreeMap<>(rates);
    }

    public RateVector with(String model, double rate) {
        Map<String, Double> next = new TreeMap<>(rates);
        next.put(model, rate);
        return new RateVector(next);
    }
}
