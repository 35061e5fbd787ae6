package dev.nona.controller.rates;

import dev.nona.controller.metrics.ControllerMetric;
import dev.nona.controller.metrics.ModelGauges;
import dev.nona.controller.logging.RateLimitedCounts;
import java.util.Map;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts each model's requests in tumbling event-time windows and emits one {@link RateEstimate} per model and
 * window when the watermark passes the window's end. Keyed by model; the input is the model name of each
 * request, with the request's event time as the record timestamp.
 *
 * <p>State per model is one counter per open window (windows stay open only until the watermark passes
 * them), plus one event-time timer each: bounded by models x open windows, never by requests. After a window
 * with traffic, the estimator also emits the next window even if it stays empty (a zero rate), so that the
 * drift detector sees a model go quiet; after an empty window it stops, so an idle model holds no state.
 *
 * <p>Requests behind the watermark (later than the configured out-of-orderness) are not counted: they are
 * counted in the {@code lateRequests} metric instead (they are still placed; only the rate ignores them).
 */
public final class RateEstimator extends KeyedProcessFunction<String, String, RateEstimate> {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(RateEstimator.class);
    /** At most one WARN about late requests per this interval. */
    private static final long LATE_LOG_INTERVAL_MILLIS = 10_000;

    private final long windowMillis;
    private transient MapState<Long, Long> counts;
    private transient Counter lateRequests;
    private transient ModelGauges rates;
    private transient RateLimitedCounts lateByModel;

    public RateEstimator(long windowMillis) {
        if (windowMillis <= 0) {
            throw new IllegalArgumentException("rate window (" + windowMillis + " ms) must be > 0");
        }
        this.windowMillis = windowMillis;
    }

    @Override
    public void open(OpenContext openContext) {
        counts = getRuntimeContext().getMapState(new MapStateDescriptor<>("window-counts", Types.LONG, Types.LONG));
        lateRequests = getRuntimeContext().getMetricGroup().counter(ControllerMetric.LATE_REQUESTS.metricName());
        rates = new ModelGauges(getRuntimeContext().getMetricGroup(), ControllerMetric.RATE_ESTIMATE);
        lateByModel = new RateLimitedCounts(LATE_LOG_INTERVAL_MILLIS, System::currentTimeMillis);
    }

    @Override
    public void processElement(String model, Context ctx, Collector<RateEstimate> out) throws Exception {
        Long timestamp = ctx.timestamp();
        if (timestamp == null) {
            throw new IllegalStateException("BUG: requests reach the rate estimator without an event timestamp");
        }
        long start = windowStart(timestamp);
        long lastMillis = start + windowMillis - 1;
        if (lastMillis <= ctx.timerService().currentWatermark()) {
            lateRequests.inc();
            Map<String, Long> summary = lateByModel.add(model);
            if (summary != null) {
                LOG.warn("Requests behind the watermark, placed but not counted in rates, last {} s by model: {}",
                        LATE_LOG_INTERVAL_MILLIS / 1000, summary);
            }
            return;
        }
        Long count = counts.get(start);
        counts.put(start, count == null ? 1L : count + 1);
        ctx.timerService().registerEventTimeTimer(lastMillis);
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<RateEstimate> out) throws Exception {
        long start = timestamp + 1 - windowMillis;
        Long count = counts.get(start);
        counts.remove(start);
        long n = count == null ? 0 : count;
        RateEstimate estimate = RateEstimate.of(ctx.getCurrentKey(), start, start + windowMillis, n);
        rates.set(estimate.model(), estimate.ratePerSecond());
        out.collect(estimate);
        if (n > 0) {
            ctx.timerService().registerEventTimeTimer(timestamp + windowMillis);
        }
    }

    long windowStart(long timestamp) {
        return Math.floorDiv(timestamp, windowMillis) * windowMillis;
    }
}
