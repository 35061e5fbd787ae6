package dev.nona.controller;

import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The Flink configuration of the controller job: the network buffer timeout, checkpointing (interval,
 * exactly-once mode, storage, small states inline in the metadata), the state backend ({@code hashmap} or
 * {@code rocksdb}; full checkpoints by default), no generic types (no Kryo: every type the job ships has a real
 * serializer), and the {@code flink.*} pass-through entries, which win.
 */
public final class ControllerEnvironment {
    /** State chunks up to this size are stored in the checkpoint's metadata file (Flink's maximum). */
    static final MemorySize INLINE_STATE_THRESHOLD = MemorySize.parse("1mb");

    private ControllerEnvironment() {}

    /** The Flink configuration for {@code config}. */
    public static Configuration configuration(ControllerConfig config) {
        Configuration conf = new Configuration();
        conf.set(PipelineOptions.GENERIC_TYPES, false);
        // Flink's default (100 ms) holds a record in a half-full network buffer for up to 100 ms: at 1,000 requests/s
        // that was the median decision latency (measured with bin/nona bench latency, docs/benchmarks.md).
        conf.set(ExecutionOptions.BUFFER_TIMEOUT, config.bufferTimeout());
        if (!config.checkpointInterval().isZero()) {
            conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, config.checkpointInterval());
            conf.set(CheckpointingOptions.CHECKPOINTING_CONSISTENCY_MODE, CheckpointingMode.EXACTLY_ONCE);
        }
        conf.set(StateBackendOptions.STATE_BACKEND, config.stateBackend());
        // The controller's state is kilobytes (models x servers): full checkpoints hold only live entries, while
        // incremental RocksDB checkpoints also carry deleted window counters until compaction (measured: 1.5 MB
        // after 10M requests vs 120 kB after 10k). Hence full checkpoints unless configured otherwise.
        conf.set(CheckpointingOptions.INCREMENTAL_CHECKPOINTS, config.incrementalCheckpoints());
        // Every state chunk up to 1 MB (Flink's maximum; its default is 20 kB) goes inline into the checkpoint's one
        // metadata file instead of a file of its own. The placement and control-loop states are tens of kilobytes:
        // at 20 kB each wrote a file per checkpoint, and on a busy local disk those writes stalled a checkpoint's
        // asynchronous phase for up to 1.6 s (bin/nona bench latency, exactly-once, 200 ms checkpoints;
        // docs/benchmarks.md). A flink.execution.checkpointing.data-inline-threshold entry wins.
        conf.set(CheckpointingOptions.FS_SMALL_FILE_THRESHOLD, INLINE_STATE_THRESHOLD);
        if (!config.checkpointDir().isBlank()) {
            conf.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, config.checkpointDir());
        }
        if (!config.controlSlotSharingGroup().isEmpty()) {
            // the embedded MiniCluster's TaskManager has as many slots as the job's parallelism: one more for the
            // control loop's own slot sharing group (ignored by a cluster's TaskManagers, which have their own)
            conf.set(TaskManagerOptions.NUM_TASK_SLOTS, config.parallelism() + 1);
        }
        config.flink().forEach(conf::setString);
        return conf;
    }

    /** The execution environment (a local MiniCluster when run outside a cluster). */
    public static StreamExecutionEnvironment create(ControllerConfig config) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(configuration(config));
        env.setParallelism(config.parallelism());
        return env;
    }
}
