package dev.nona.controller.source;

import dev.nona.controller.loop.ControlInput;
import dev.nona.controller.serde.JsonRecordTypeInfo;
import dev.nona.topics.record.DeadLetter;
import org.apache.flink.api.common.functions.OpenContext;
import dev.nona.controller.metrics.ControllerMetric;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/** Passes valid telemetry and catalog inputs on and sends rejected records to {@link #DEAD_LETTERS}. */
public final class RejectedControls extends ProcessFunction<ControlRecord, ControlInput> {
    private static final long serialVersionUID = 1L;

    public static final OutputTag<DeadLetter> DEAD_LETTERS =
            new OutputTag<>("control-dead-letters", JsonRecordTypeInfo.of(DeadLetter.class));

    private transient Counter deadLetters;

    @Override
    public void open(OpenContext openContext) {
        deadLetters = getRuntimeContext().getMetricGroup().counter(ControllerMetric.DEAD_LETTERS.metricName());
    }

    @Override
    public void processElement(ControlRecord record, Context ctx, Collector<ControlInput> out) {
        if (record.input() != null) {
            out.collect(record.input());
        } else {
            deadLetters.inc();
            ctx.output(DEAD_LETTERS, record.rejected());
        }
    }
}
