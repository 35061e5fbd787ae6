package dev.nona.controller.source;

import dev.nona.controller.serde.JsonRecordTypeInfo;
import dev.nona.topics.record.DeadLetter;
import org.apache.flink.api.common.functions.OpenContext;
import dev.nona.controller.metrics.ControllerMetric;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/** Passes valid requests on and sends rejected ones to {@link #DEAD_LETTERS} (counted in {@code deadLetters}). */
public final class RejectedRequests extends ProcessFunction<RequestRecord, RequestRecord> {
    private static final long serialVersionUID = 1L;

    public static final OutputTag<DeadLetter> DEAD_LETTERS =
            new OutputTag<>("request-dead-letters", JsonRecordTypeInfo.of(DeadLetter.class));

    private transient Counter deadLetters;

    @Override
    public void open(OpenContext openContext) {
        deadLetters = getRuntimeContext().getMetricGroup().counter(ControllerMetric.DEAD_LETTERS.metricName());
    }

    @Override
    public void processElement(RequestRecord record, Context ctx, Collector<RequestRecord> out) {
        if (record.request() != null) {
            out.collect(record);
        } else {
            deadLetters.inc();
            ctx.output(DEAD_LETTERS, record.rejected());
        }
    }
}
