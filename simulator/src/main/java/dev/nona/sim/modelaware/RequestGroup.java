package dev.nona.sim.modelaware;

import java.util.Locale;

/**
 * A batch of requests of one model. Groups run one after another: a group's first request arrives when every
 * request of the previous group has finished (the thesis's "warming request" is a group of one).
 *
 * @param model   the model's name
 * @param count   how many requests, at least 1
 * @param cores   cores each request's process reserves, at least 1 (the thesis: 1, or 4 for a whole machine)
 * @param arrival whether the group's requests arrive together or each after the previous one finished
 */
public record RequestGroup(String model, int count, int cores, Arrival arrival) {
    /** How a group's requests arrive. */
    public enum Arrival {
        /** All at the group's start. */
        CONCURRENT,
        /** Each when the previous one has finished. */
        SEQUENTIAL;

        public static Arrival parse(String s, String field) {
            try {
                return valueOf(s.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(field + " ('" + s + "') must be 'concurrent' or 'sequential'", e);
            }
        }
    }

    public RequestGroup {
        if (model == null || model.isBlank()) {
            throw new IllegalArgumentException("request group model must not be blank");
        }
        if (count < 1) {
            throw new IllegalArgumentException("request group '" + model + "': count (" + count + ") must be >= 1");
        }
        if (cores < 1) {
            throw new IllegalArgumentException("request group '" + model + "': cores (" + cores + ") must be >= 1");
        }
        if (arrival == null) {
            throw new IllegalArgumentException("request group '" + model + "': arrival must be set");
        }
    }
}
