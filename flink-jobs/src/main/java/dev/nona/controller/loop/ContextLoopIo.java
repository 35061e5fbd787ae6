package dev.nona.controller.loop;

import dev.nona.controller.optimize.ControllerTable;
import dev.nona.topics.record.ControllerEvent;
import dev.nona.topics.record.DeadLetter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * {@link LoopIo} over Flink's context of the input or timer being handled: {@link ControlLoopFunction} binds it at
 * each call. Events go to {@link ControlLoopFunction#EVENTS}, rejected commands to
 * {@link ControlLoopFunction#COMMAND_DEAD_LETTERS}, tables to the main output.
 */
final class ContextLoopIo implements LoopIo {
    private KeyedProcessFunction<String, ControlInput, ControllerTable>.Context ctx;
    private Collector<ControllerTable> out;

    void bind(KeyedProcessFunction<String, ControlInput, ControllerTable>.Context context,
            Collector<ControllerTable> collector) {
        this.ctx = context;
        this.out = collector;
    }

    @Override
    public long now() {
        return ctx.timerService().currentProcessingTime();
    }

    @Override
    public long watermark() {
        return ctx.timerService().currentWatermark();
    }

    @Override
    public void processingTimer(long time) {
        ctx.timerService().registerProcessingTimeTimer(time);
    }

    @Override
    public void eventTimer(long time) {
        ctx.timerService().registerEventTimeTimer(time);
    }

    @Override
    public void publish(ControllerTable table) {
        out.collect(table);
    }

    @Override
    public void event(ControllerEvent event) {
        ctx.output(ControlLoopFunction.EVENTS, event);
    }

    @Override
    public void deadLetter(DeadLetter rejected) {
        ctx.output(ControlLoopFunction.COMMAND_DEAD_LETTERS, rejected);
    }
}
