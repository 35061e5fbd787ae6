package dev.nona.controller.outcome;

import dev.nona.controller.serde.JsonRecordTypeInfo;
import dev.nona.topics.record.DeadLetter;
import dev.nona.topics.record.PlacementOutcome;
import org.apache.flink.api.common.functions.OpenContext;
import dev.nona.controller.metrics.ControllerMetric;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/** Passes valid outcomes on and sends rejected records to {@link #DEAD_LETTERS}. */
public final class RejectedOutcomes extends ProcessFunction<OutcomeRecord, PlacementOutcome> {
    private static final long serialVersionUID = 1L;

    public static final OutputTag<DeadLetter> DEAD_LETTERS =
            new OutputTag<>("outcome-dead-letters", JsonRecordTypeInfo.of(DeadLetter.class));

    private transient Counter deadLetters;

    @Override
    public void open(OpenContext openContext) {
        deadLetters = getRuntimeContext().getMetricGroup().counter(ControllerMetric.DEAD_LETTERS.metricName());
    }

    @Override
    public void processElement(OutcomeRecord record, Context ctx, Collector<PlacementOutcome> out) {
        if (record.outcome() != null) {
            out.collect(record.outcome());
        } else {
            deadLetters.inc();
            ctx.output(DEAD_LETTERS, record.rejected());
        }
    }
}
