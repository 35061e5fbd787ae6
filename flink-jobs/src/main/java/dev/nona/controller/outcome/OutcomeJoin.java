package dev.nona.controller.outcome;

import dev.nona.controller.serde.ControlJson;
import dev.nona.controller.serde.JsonRecordTypeInfo;
import dev.nona.topics.record.DeadLetter;
import dev.nona.topics.record.PlacementOutcome;
import java.nio.charset.StandardCharsets;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import dev.nona.controller.metrics.ControllerMetric;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.co.KeyedCoProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Joins the controller's own decisions (their {@link DecisionSummary}) with their outcomes by request id (keyed by
 * it), in processing time.
 *
 * <ul>
 *   <li>A decision waits up to {@code maxWaitMillis} for its outcome; then it is {@link JoinedOutcome.Missing}.
 *   <li>An outcome that arrives first waits up to {@code decisionWaitMillis} for its decision; then it is
 *       {@link JoinedOutcome.Unmatched}.
 *   <li>Both: {@link JoinedOutcome.Matched}. The first decision per request id wins (the at-least-once contract
 *       of {@code placement-decisions}): a second one is counted ({@code duplicateDecisions}) and dropped, and so
 *       is a second outcome ({@code ignoredOutcomes}).
 *   <li>An outcome whose model is not its decision's is a dead letter ({@link #DEAD_LETTERS}) and the decision
 *       keeps waiting.
 * </ul>
 *
 * <p>After a request is matched or given up, its key remembers that it is done for another {@code maxWaitMillis}
 * (a marker, not the records), so that a replayed decision or a late outcome in that time is not counted again;
 * then every state entry and timer of the key is gone. State is therefore bounded by the decision and outcome rates
 * times about twice {@code maxWaitMillis}. Everything is keyed state and timers, so it is checkpointed.
 */
public final class OutcomeJoin extends KeyedCoProcessFunction<String, DecisionSummary, PlacementOutcome, JoinedOutcome> {
    private static final long serialVersionUID = 1L;

    public static final OutputTag<DeadLetter> DEAD_LETTERS =
            new OutputTag<>("joined-outcome-dead-letters", JsonRecordTypeInfo.of(DeadLetter.class));

    private final String outcomesTopic;
    private final long maxWaitMillis;
    private final long decisionWaitMillis;

    private transient ValueState<DecisionSummary> decision;
    private transient ValueState<PlacementOutcome> outcome;
    private transient ValueState<Long> timer;
    private transient ValueState<Boolean> done;
    private transient Counter matched;
    private transient Counter missing;
    private transient Counter unmatched;
    private transient Counter duplicateDecisions;
    private transient Counter ignoredOutcomes;

    /**
     * @param outcomesTopic      the outcomes topic, named in dead letters
     * @param maxWaitMillis      how long a decision waits for its outcome, {@code > 0}
     * @param decisionWaitMillis how long an outcome waits for its decision, {@code > 0}
     */
    public OutcomeJoin(String outcomesTopic, long maxWaitMillis, long decisionWaitMillis) {
        if (maxWaitMillis <= 0 || decisionWaitMillis <= 0) {
            throw new IllegalArgumentException("max wait (" + maxWaitMillis + " ms) and decision wait ("
                    + decisionWaitMillis + " ms) must be > 0");
        }
        this.outcomesTopic = outcomesTopic;
        this.maxWaitMillis = maxWaitMillis;
        this.decisionWaitMillis = decisionWaitMillis;
    }

    @Override
    public void open(OpenContext openContext) {
        decision = getRuntimeContext().getState(
                new ValueStateDescriptor<>("decision", new DecisionSummarySerializer.TypeInfo()));
        outcome = getRuntimeContext().getState(
                new ValueStateDescriptor<>("outcome", JsonRecordTypeInfo.of(PlacementOutcome.class)));
        timer = getRuntimeContext().getState(new ValueStateDescriptor<>("timer", Types.LONG));
        done = getRuntimeContext().getState(new ValueStateDescriptor<>("done", Types.BOOLEAN));
        var metrics = getRuntimeContext().getMetricGroup();
        matched = metrics.counter(ControllerMetric.MATCHED_OUTCOMES.metricName());
        missing = metrics.counter(ControllerMetric.MISSING_OUTCOMES.metricName());
        unmatched = metrics.counter(ControllerMetric.UNMATCHED_OUTCOMES.metricName());
        duplicateDecisions = metrics.counter(ControllerMetric.DUPLICATE_DECISIONS.metricName());
        ignoredOutcomes = metrics.counter(ControllerMetric.IGNORED_OUTCOMES.metricName());
    }

    @Override
    public void processElement1(DecisionSummary d, Context ctx, Collector<JoinedOutcome> out) throws Exception {
        if (done.value() != null || decision.value() != null) {
            duplicateDecisions.inc();
            return;
        }
        PlacementOutcome o = outcome.value();
        if (o != null && !o.model().equals(d.model())) {
            outcome.clear();
            ctx.output(DEAD_LETTERS, wrongModel(o, d, ctx));
            o = null;
        }
        if (o != null) {
            matched.inc();
            out.collect(new JoinedOutcome.Matched(d, o));
            finish(ctx);
            return;
        }
        decision.update(d);
        schedule(ctx, maxWaitMillis);
    }

    @Override
    public void processElement2(PlacementOutcome o, Context ctx, Collector<JoinedOutcome> out) throws Exception {
        if (done.value() != null || outcome.value() != null) {
            ignoredOutcomes.inc();
            return;
        }
        DecisionSummary d = decision.value();
        if (d == null) {
            outcome.update(o);
            schedule(ctx, decisionWaitMillis);
        } else if (!o.model().equals(d.model())) {
            ctx.output(DEAD_LETTERS, wrongModel(o, d, ctx));
        } else {
            matched.inc();
            out.collect(new JoinedOutcome.Matched(d, o));
            finish(ctx);
        }
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<JoinedOutcome> out) throws Exception {
        timer.clear();
        if (done.value() != null) {
            done.clear();
            return;
        }
        DecisionSummary d = decision.value();
        PlacementOutcome o = outcome.value();
        if (d != null) {
            missing.inc();
            out.collect(new JoinedOutcome.Missing(d.requestId(), d.model()));
        } else if (o != null) {
            unmatched.inc();
            out.collect(new JoinedOutcome.Unmatched(o.requestId(), o.model()));
        } else {
            throw new IllegalStateException("BUG: a timer for request " + ctx.getCurrentKey() + " with nothing waiting");
        }
        finish(ctx);
    }

    /** The request is done: drop its records, remember that for {@code maxWaitMillis}. */
    private void finish(Context ctx) throws Exception {
        decision.clear();
        outcome.clear();
        done.update(true);
        schedule(ctx, maxWaitMillis);
    }

    private void schedule(Context ctx, long delayMillis) throws Exception {
        Long previous = timer.value();
        if (previous != null) {
            ctx.timerService().deleteProcessingTimeTimer(previous);
        }
        long at = ctx.timerService().currentProcessingTime() + delayMillis;
        ctx.timerService().registerProcessingTimeTimer(at);
        timer.update(at);
    }

    private DeadLetter wrongModel(PlacementOutcome o, DecisionSummary d, Context ctx) throws Exception {
        byte[] raw = ControlJson.write(o).getBytes(StandardCharsets.UTF_8);
        return DeadLetter.of(raw, outcomesTopic, -1, -1L, "field 'model' ('" + o.model()
                + "') is not the model of request " + o.requestId() + "'s decision ('" + d.model() + "')",
                ctx.timerService().currentProcessingTime());
    }
}
