package dev.nona.cli;

import dev.nona.controller.ControllerConfig;
import dev.nona.controller.ControllerMain;
import dev.nona.local.PrometheusReporterSettings;
import dev.nona.local.StateDirectory;
import java.net.URI;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Option;

/**
 * {@code nona run --bootstrap HOST:PORT [--config FILE] [--metrics-port P] [--state-dir DIR] [--fresh]}: runs the
 * controller against an existing Kafka, on a local MiniCluster (or on the cluster named by
 * {@code flink.execution.target} and friends in the config file), with Flink's Prometheus reporter serving the
 * metrics on {@code http://HOST:P/metrics} (9249 by default; 0 turns it off; {@code flink.metrics.reporter.*} entries
 * of the config file win).
 *
 * <p>Checkpoints go to the state directory ({@link StateDirectory}; {@code ./nona-state/<controller.id>} by default,
 * unless the config file sets {@code checkpoint.dir}) and are kept when the process dies; a start resumes from the
 * newest completed one, {@code --fresh} starts empty. Which one it resumed from, or why it started fresh, is logged
 * and written as a {@code CONTROLLER_STARTED} event.
 */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Run the placement controller against an existing Kafka (local Flink MiniCluster by default).")
final class RunCommand implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(RunCommand.class);

    @Option(names = "--bootstrap", required = true, description = "Kafka bootstrap servers, HOST:PORT[,HOST:PORT...]")
    String bootstrap;

    @Option(names = "--config", description = "Controller properties file (see docs/controller.md)")
    Path config;

    @Option(names = "--metrics-port", paramLabel = "P", defaultValue = "" + PrometheusReporterSettings.DEFAULT_PORT,
            description = "port of Flink's Prometheus reporter, /metrics (default: ${DEFAULT-VALUE}; 0: off)")
    int metricsPort;

    @Option(names = "--state-dir", paramLabel = "DIR",
            description = "where checkpoints are kept and resumed from (default: ./" + StateDirectory.DEFAULT_PARENT
                    + "/<controller.id>; a checkpoint.dir in the config file wins)")
    Path stateDir;

    @Option(names = "--fresh", description = "start empty: do not resume from the newest checkpoint")
    boolean fresh;

    @Override
    public Integer call() throws Exception {
        PrometheusReporterSettings.requireFlag(metricsPort);
        ControllerConfig base = controllerConfig(Map.of());
        try (StateDirectory.Hold held = holdStateDirectory(base)) {
            Start start = start(base);
            LOG.info("{}", start.message());
            ControllerMain.run(start.recoveryPath() == null ? base
                    : controllerConfig(Map.of(RECOVERY_PATH, start.recoveryPath())), start.details());
        }
        return 0;
    }

    /** The Flink option a job resumes from ({@code execution.state-recovery.path}), as a pass-through entry. */
    static final String RECOVERY_PATH = "flink.execution.state-recovery.path";
    /** Checkpoints are kept when the job is cancelled or its process dies. */
    static final String RETENTION = "flink.execution.checkpointing.externalized-checkpoint-retention";

    /** How the controller starts: the checkpoint it resumes from (or null), and the details of its start event. */
    record Start(String recoveryPath, Map<String, Object> details, String message) {}

    /** Where {@code config}'s controller resumes from: the state directory's newest checkpoint, unless fresh. */
    Start start(ControllerConfig config) {
        Path checkpoints = checkpointDirectory(config);
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("stateDir", checkpoints == null ? config.checkpointDir() : checkpoints.toString());
        if (config.checkpointInterval().isZero()) {
            details.put("resumed", false);
            details.put("reason", "checkpointing is off (checkpoint.interval=0)");
        } else if (checkpoints == null) {
            details.put("resumed", false);
            details.put("reason", config.checkpointDir().isBlank() ? "no checkpoint storage (checkpoint.dir)"
                    : "checkpoint.dir (" + config.checkpointDir() + ") is not a local directory");
        } else if (fresh) {
            details.put("resumed", false);
            details.put("reason", "--fresh");
            prune(new StateDirectory(checkpoints), null, config, details);
        } else {
            StateDirectory state = new StateDirectory(checkpoints);
            StateDirectory.Latest latest = state.latest();
            prune(state, latest, config, details);
            if (latest.checkpoint() != null) {
                details.put("resumed", true);
                details.put("checkpoint", latest.checkpoint().toString());
                if (!latest.skipped().isEmpty()) {
                    details.put("skipped", String.join("; ", latest.skipped()));
                }
                return new Start(latest.checkpoint().toUri().toString(), details,
                        "Controller " + config.controllerId() + " resumes from checkpoint " + latest.checkpoint());
            }
            details.put("resumed", false);
            details.put("reason", latest.whyNone());
        }
        return new Start(null, details, "Controller " + config.controllerId() + " starts fresh: " + details.get("reason"));
    }

    /** Flink's option of the claim mode a job restores in, and its older name. */
    private static final List<String> CLAIM_MODE = List.of("execution.state-recovery.claim-mode",
            "execution.savepoint-restore-mode");

    /**
     * Deletes the job folders of earlier runs no start can resume from ({@link StateDirectory#prune}), unless the
     * config restores in {@code CLAIM} mode; how many went is in the start event's {@code pruned}, and each is logged.
     */
    private static void prune(StateDirectory state, StateDirectory.Latest latest, ControllerConfig config,
            Map<String, Object> details) {
        boolean claimed = CLAIM_MODE.stream().map(config.flink()::get)
                .anyMatch(mode -> mode != null && mode.strip().equalsIgnoreCase("CLAIM"));
        List<Path> deleted = state.prune(latest, claimed);
        for (Path job : deleted) {
            LOG.info("Deleted {}: an earlier run's checkpoints, older than the one resumed from, or none completed", job);
        }
        details.put("pruned", deleted.size());
    }

    /**
     * The local state directory, created if absent, claimed for the config's {@code controller.id}
     * ({@link StateDirectory#claim}) and held by this process ({@link StateDirectory#hold}), before a checkpoint is read
     * or Flink starts: a file, a folder it may not write in, another controller's directory or one another process
     * runs on is an error naming {@code --state-dir} (or {@code checkpoint.dir}, where the config file set it), where
     * Flink would fail the job's submission with "Failed to create checkpoint storage" under a page of stack trace, or
     * resume from the other controller's checkpoint, or two processes would decide every request.
     */
    StateDirectory.Hold holdStateDirectory(ControllerConfig config) {
        Path dir = checkpointDirectory(config);
        if (dir == null || config.checkpointInterval().isZero()) {
            return StateDirectory.Hold.NONE;
        }
        Path absolute = dir.toAbsolutePath().normalize();
        String name = stateDir != null && new StateDirectory(stateDir).dir().equals(absolute) ? "--state-dir"
                : StateDirectory.defaultFor(Path.of("").toAbsolutePath(), config.controllerId()).dir().equals(absolute)
                        ? "the state directory" : "checkpoint.dir";
        OutputPaths.directory(name, dir);
        StateDirectory state = new StateDirectory(dir);
        state.claim(config.controllerId(), name);
        return state.hold(name);
    }

    /** The local directory {@code config}'s checkpoints go to, or null when they go elsewhere (or nowhere). */
    private static Path checkpointDirectory(ControllerConfig config) {
        String dir = config.checkpointDir();
        if (dir.isBlank()) {
            return null;
        }
        if (dir.startsWith("file:")) {
            return Path.of(URI.create(dir));
        }
        return dir.contains("://") ? null : Path.of(dir);
    }

    /**
     * The controller's config: the file's (or the defaults), the bootstrap, the reporter unless the file sets it, the
     * state directory as checkpoint storage (on the local MiniCluster, or given with {@code --state-dir}) with retained
     * checkpoints unless the file says otherwise, and {@code extra}.
     */
    ControllerConfig controllerConfig(Map<String, String> extra) {
        Map<String, String> defaults = new HashMap<>(metricsPort == 0 ? Map.of()
                : PrometheusReporterSettings.controllerSettings(metricsPort));
        defaults.put(RETENTION, "RETAIN_ON_CANCELLATION");
        ControllerConfig first = config == null ? ControllerConfig.fromMap(withBootstrap(defaults))
                : ControllerConfig.load(config, bootstrap, defaults);
        String target = first.flink().getOrDefault("execution.target", "local");
        if (stateDir != null || target.equals("local")) { // a remote cluster keeps the storage its config names
            StateDirectory state = stateDir != null ? new StateDirectory(stateDir)
                    : StateDirectory.defaultFor(Path.of("").toAbsolutePath(), first.controllerId());
            defaults.put("checkpoint.dir", state.checkpointUri());
        }
        defaults.putAll(extra);
        return config == null
                ? ControllerConfig.fromMap(withBootstrap(defaults))
                : ControllerConfig.load(config, bootstrap, defaults);
    }

    /** The controller's config without extra entries. */
    ControllerConfig controllerConfig() {
        return controllerConfig(Map.of());
    }

    private Map<String, String> withBootstrap(Map<String, String> settings) {
        Map<String, String> all = new HashMap<>(settings);
        all.put("bootstrap.servers", bootstrap);
        return all;
    }
}
