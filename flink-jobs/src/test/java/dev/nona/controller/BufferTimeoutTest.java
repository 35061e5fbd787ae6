package dev.nona.controller;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobgraph.JobVertex;
import org.apache.flink.streaming.api.graph.NonChainedOutput;
import org.apache.flink.streaming.api.graph.StreamConfig;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.graph.StreamingJobGraphGenerator;
import org.junit.jupiter.api.Test;

/**
 * Where the network buffer timeouts go: the request parser's outputs (to placement, and its dead letters) and the
 * operator commands' edge to placement flush at {@code network.buffer-timeout}; every other edge of the job at 100 ms, or at {@code network.buffer-timeout} when
 * that is longer. Built from the production wiring ({@link KafkaIo}); nothing connects to a broker.
 */
final class BufferTimeoutTest {
    @Test
    void requestPath_flushesAtTheKey_everythingElseAt100ms() {
        Map<String, Long> timeouts = networkOutputs(Map.of("bootstrap.servers", "127.0.0.1:1",
                "network.buffer-timeout", "1ms", "topics.outcomes", "placement-outcomes"));
        assertThat(timeouts).containsEntry("parse requests", 1L).containsEntry("commands to placement", 1L);
        assertThat(timeouts).hasSizeGreaterThan(10);
        timeouts.forEach((from, millis) -> {
            if (!from.equals("parse requests") && !from.equals("commands to placement")) {
                assertThat(millis).as("network output of %s", from).isEqualTo(100);
            }
        });
    }

    @Test
    void aLongerKey_isTheFloorOfTheControlPath() {
        Map<String, Long> timeouts = networkOutputs(Map.of("bootstrap.servers", "127.0.0.1:1",
                "network.buffer-timeout", "250ms"));
        assertThat(timeouts).isNotEmpty().allSatisfy((from, millis) -> assertThat(millis).as(from).isEqualTo(250));
    }

    @Test
    void zero_flushesTheRequestPathAfterEveryRecord() {
        ControllerConfig c = ControllerConfig.fromMap(Map.of("bootstrap.servers", "b", "network.buffer-timeout", "0ms"));
        assertThat(ControllerJob.controlBufferTimeout(c)).isEqualTo(100);
        assertThat(networkOutputs(Map.of("bootstrap.servers", "127.0.0.1:1", "network.buffer-timeout", "0ms")))
                .containsEntry("parse requests", 0L);
    }

    /**
     * The buffer timeout of each operator's outputs to another task (chained outputs have none), by operator name;
     * an operator with several network outputs must give them one timeout.
     */
    private static Map<String, Long> networkOutputs(Map<String, String> settings) {
        StreamGraph graph = StreamGraphs.of(settings);
        JobGraph job = StreamingJobGraphGenerator.createJobGraph(graph);
        Map<String, Long> out = new TreeMap<>();
        ClassLoader cl = BufferTimeoutTest.class.getClassLoader();
        for (JobVertex v : job.getVertices()) {
            for (NonChainedOutput o : new StreamConfig(v.getConfiguration()).getVertexNonChainedOutputs(cl)) {
                String from = graph.getStreamNode(o.getSourceNodeId()).getOperatorName();
                Long before = out.put(from, o.getBufferTimeout());
                assertThat(before == null || before == o.getBufferTimeout()).as(from).isTrue();
            }
        }
        return out;
    }
}
