package dev.nona.controller.outcome;

import dev.nona.controller.loop.ControlInput;
import dev.nona.controller.serde.JsonRecordTypeInfo;
import dev.nona.topics.record.CatalogTask;
import dev.nona.topics.record.PlacementDecision;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.functions.co.BroadcastProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Turns each decision into its {@link DecisionSummary}, with the catalog (broadcast: {@link #TASK_OPS}, written
 * only by the broadcast side, newest entry per model) giving each server's ops.
 */
public final class DecisionDigest extends BroadcastProcessFunction<PlacementDecision, ControlInput, DecisionSummary> {
    private static final long serialVersionUID = 1L;

    /** The ops of each task, per model in the catalog. */
    public record TaskOps(Map<String, Double> ops) {
        public TaskOps {
            ops = Map.copyOf(ops);
        }
    }

    public static final MapStateDescriptor<String, TaskOps> TASK_OPS =
            new MapStateDescriptor<>("outcome-task-ops", Types.STRING, JsonRecordTypeInfo.of(TaskOps.class));

    @Override
    public void processElement(PlacementDecision d, ReadOnlyContext ctx, Collector<DecisionSummary> out)
            throws Exception {
        TaskOps ops = ctx.getBroadcastState(TASK_OPS).get(d.model());
        out.collect(DecisionSummary.of(d, ops == null ? null : ops.ops()));
    }

    @Override
    public void processBroadcastElement(ControlInput input, Context ctx, Collector<DecisionSummary> out)
            throws Exception {
        if (input.catalog() != null) {
            ctx.getBroadcastState(TASK_OPS).put(input.catalog().model(), of(input));
        } else if (input.removedModel() != null) {
            ctx.getBroadcastState(TASK_OPS).remove(input.removedModel());
        }
    }

    /** The task ops of a catalog input. */
    static TaskOps of(ControlInput catalog) {
        Map<String, Double> ops = new HashMap<>(catalog.catalog().dag().tasks().size() * 2);
        for (CatalogTask t : catalog.catalog().dag().tasks()) {
            ops.put(t.id(), t.ops());
        }
        return new TaskOps(ops);
    }
}
