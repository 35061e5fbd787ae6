package dev.nona.controller.logging;

import dev.nona.controller.metrics.DeadLetterCounters;
import dev.nona.topics.record.DeadLetter;
import java.util.Map;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Passes dead letters through unchanged and logs their counts by source topic and reason class, at most one WARN
 * per interval, and counts them by topic and reason class in the {@code topic_reason_deadLetters} metric
 * ({@link DeadLetterCounters}; each rejecting operator also counts its own in {@code deadLetters}). A reason's
 * class is its text with quoted values and numbers blanked and cut at its first colon, so that
 * {@code model 'x' is not in the model catalog} and {@code model 'y' ...} count together.
 */
public final class DeadLetterLog extends ProcessFunction<DeadLetter, DeadLetter> {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterLog.class);

    private final long intervalMillis;
    private transient RateLimitedCounts counts;
    private transient DeadLetterCounters byReason;

    public DeadLetterLog(long intervalMillis) {
        this.intervalMillis = intervalMillis;
    }

    @Override
    public void open(OpenContext openContext) {
        counts = new RateLimitedCounts(intervalMillis, System::currentTimeMillis);
        byReason = new DeadLetterCounters(getRuntimeContext().getMetricGroup());
    }

    @Override
    public void processElement(DeadLetter letter, Context ctx, Collector<DeadLetter> out) {
        String reasonClass = reasonClass(letter.reason());
        byReason.inc(letter.sourceTopic(), reasonClass);
        Map<String, Long> summary = counts.add(letter.sourceTopic() + ": " + reasonClass);
        if (summary != null) {
            log(summary);
        }
        out.collect(letter);
    }

    @Override
    public void close() {
        if (counts != null) {
            Map<String, Long> rest = counts.drain();
            if (!rest.isEmpty()) {
                log(rest);
            }
        }
    }

    private void log(Map<String, Long> summary) {
        LOG.warn("Dead letters in the last {} s (by topic and reason): {}", intervalMillis / 1000, summary);
    }

    /** The reason with quoted values and numbers blanked, up to its first colon, at most 80 characters. */
    static String reasonClass(String reason) {
        String r = reason.replaceAll("'[^']*'", "'_'").replaceAll("\"[^\"]*\"", "\"_\"").replaceAll("\\d+", "N");
        int colon = r.indexOf(':');
        r = colon > 0 ? r.substring(0, colon) : r;
        return r.length() > 80 ? r.substring(0, 80) : r;
    }
}
