package dev.nona.controller.rates;

/**
 * One model's arrival rate over one event-time window: the estimate of its $\beta_j$.
 *
 * @param model         the model (job class)
 * @param windowStart   window start, epoch ms (inclusive)
 * @param windowEnd     window end, epoch ms (exclusive)
 * @param count         requests with an event time in the window, {@code >= 0}
 * @param ratePerSecond {@code count} divided by the window's length in seconds
 */
public record RateEstimate(String model, long windowStart, long windowEnd, long count, double ratePerSecond) {
    public RateEstimate {
        if (model == null || model.isBlank()) {
            throw new IllegalArgumentException("model ('" + model + "') must not be blank");
        }
        if (windowEnd <= windowStart) {
            throw new IllegalArgumentException("windowEnd (" + windowEnd + ") must be > windowStart (" + windowStart + ")");
        }
        if (count < 0) {
            throw new IllegalArgumentException("count (" + count + ") must be >= 0");
        }
    }

    /** The estimate of {@code count} requests over {@code [windowStart, windowEnd)}. */
    public static RateEstimate of(String model, long windowStart, long windowEnd, long count) {
        return new RateEstimate(model, windowStart, windowEnd, count, count * 1000.0 / (windowEnd - windowStart));
    }
}
