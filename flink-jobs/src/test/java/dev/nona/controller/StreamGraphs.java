package dev.nona.controller;

import dev.nona.controller.optimize.NonaTableSolver;
import dev.nona.controller.placement.NonaPlacerFactory;
import java.util.Map;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;

/** The controller job's stream graph for the given settings, from the production wiring ({@link KafkaIo}); nothing
 *  connects to a broker. */
final class StreamGraphs {
    private StreamGraphs() {}

    static StreamGraph of(Map<String, String> settings) {
        ControllerConfig config = ControllerConfig.fromMap(settings);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(
                ControllerEnvironment.configuration(config));
        boolean outcomes = !config.topics().outcomes().isBlank();
        new ControllerJob(config, KafkaIo.sources(config, outcomes).withCommands(KafkaIo.commandSource(config)),
                KafkaIo.sinks(config), new NonaTableSolver(false), new NonaPlacerFactory()).addTo(env);
        return env.getStreamGraph();
    }
}
