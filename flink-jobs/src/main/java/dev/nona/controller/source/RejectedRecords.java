package dev.nona.controller.source;

import dev.nona.controller.loop.ControlInput;
import dev.nona.controller.metrics.ControllerMetric;
import dev.nona.controller.outcome.OutcomeRecord;
import dev.nona.controller.serde.JsonRecordTypeInfo;
import dev.nona.topics.record.DeadLetter;
import dev.nona.topics.record.PlacementOutcome;
import java.util.Objects;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import org.apache.flink.util.function.SerializableFunction;

/**
 * The parse step after a source: passes each valid record's value on and sends each rejected one's dead letter to a
 * side output, counted in {@code deadLetters}. One function for the three parsed sources ({@link #requests},
 * {@link #controls}, {@link #outcomes}), each with its own side-output tag; a parsed record holds exactly one of a
 * value and a dead letter.
 *
 * @param <R> the parsed record (a value or a dead letter)
 * @param <T> the value passed on
 */
public final class RejectedRecords<R, T> extends ProcessFunction<R, T> implements ResultTypeQueryable<T> {
    private static final long serialVersionUID = 1L;

    /** Rejected {@code inference-requests} records. */
    public static final OutputTag<DeadLetter> REQUEST_DEAD_LETTERS =
            new OutputTag<>("request-dead-letters", JsonRecordTypeInfo.of(DeadLetter.class));
    /** Rejected {@code cluster-telemetry} and {@code model-catalog} records. */
    public static final OutputTag<DeadLetter> CONTROL_DEAD_LETTERS =
            new OutputTag<>("control-dead-letters", JsonRecordTypeInfo.of(DeadLetter.class));
    /** Rejected {@code placement-outcomes} records. */
    public static final OutputTag<DeadLetter> OUTCOME_DEAD_LETTERS =
            new OutputTag<>("outcome-dead-letters", JsonRecordTypeInfo.of(DeadLetter.class));

    private final OutputTag<DeadLetter> deadLetterTag;
    private final SerializableFunction<R, T> value;
    private final SerializableFunction<R, DeadLetter> rejected;
    private final TypeInformation<T> type;
    private transient Counter deadLetters;

    /**
     * @param deadLetterTag the side output of the rejected records' dead letters
     * @param value         a record's value to pass on, or {@code null} when the record was rejected
     * @param rejected      a rejected record's dead letter
     * @param type          the type of the values passed on
     */
    public RejectedRecords(OutputTag<DeadLetter> deadLetterTag, SerializableFunction<R, T> value,
            SerializableFunction<R, DeadLetter> rejected, TypeInformation<T> type) {
        this.deadLetterTag = Objects.requireNonNull(deadLetterTag, "dead-letter tag");
        this.value = Objects.requireNonNull(value, "value accessor");
        this.rejected = Objects.requireNonNull(rejected, "rejected accessor");
        this.type = Objects.requireNonNull(type, "value type");
    }

    /** Valid requests go on as they are (with partition and offset); rejected ones to {@link #REQUEST_DEAD_LETTERS}. */
    public static RejectedRecords<RequestRecord, RequestRecord> requests() {
        return new RejectedRecords<>(REQUEST_DEAD_LETTERS, r -> r.request() != null ? r : null, RequestRecord::rejected,
                TypeInformation.of(RequestRecord.class));
    }

    /** Valid telemetry and catalog inputs go on; rejected records to {@link #CONTROL_DEAD_LETTERS}. */
    public static RejectedRecords<ControlRecord, ControlInput> controls() {
        return new RejectedRecords<>(CONTROL_DEAD_LETTERS, ControlRecord::input, ControlRecord::rejected,
                JsonRecordTypeInfo.of(ControlInput.class));
    }

    /** Valid outcomes go on; rejected records to {@link #OUTCOME_DEAD_LETTERS}. */
    public static RejectedRecords<OutcomeRecord, PlacementOutcome> outcomes() {
        return new RejectedRecords<>(OUTCOME_DEAD_LETTERS, OutcomeRecord::outcome, OutcomeRecord::rejected,
                JsonRecordTypeInfo.of(PlacementOutcome.class));
    }

    @Override
    public void open(OpenContext openContext) {
        deadLetters = getRuntimeContext().getMetricGroup().counter(ControllerMetric.DEAD_LETTERS.metricName());
    }

    @Override
    public void processElement(R record, Context ctx, Collector<T> out) {
        T v = value.apply(record);
        if (v != null) {
            out.collect(v);
        } else {
            deadLetters.inc();
            ctx.output(deadLetterTag, rejected.apply(record));
        }
    }

    @Override
    public TypeInformation<T> getProducedType() {
        return type;
    }
}
