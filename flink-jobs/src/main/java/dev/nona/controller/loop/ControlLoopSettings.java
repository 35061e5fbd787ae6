package dev.nona.controller.loop;

import dev.nona.calibration.RollbackRule;
import dev.nona.controller.ControllerConfig;
import dev.nona.controller.ControllerOptions;
import dev.nona.controller.ControllerConfig.DriftSettings;
import dev.nona.controller.ControllerConfig.RetryBackoff;
import java.io.Serializable;
import java.time.Duration;
import java.util.Objects;

/**
 * What the control loop needs of the configuration (see {@link ControllerConfig} for each key).
 *
 * @param drift                    the drift detector's settings
 * @param rateWindow               the length of the rate windows ({@code rates.window})
 * @param defaultLinkBitsPerSecond link capacity assumed until a server reports one
 * @param solveTimeout             a solve running longer is cancelled and retried ({@code solve.timeout})
 * @param solvePoll                how often the loop checks its solver thread ({@code solve.poll})
 * @param retry                    backoff between attempts of a failed or timed-out solve
 * @param livenessTimeout          a server not heard from for longer is down ({@code cluster.liveness-timeout})
 * @param rollback                 when an observed-worse table is rolled back ({@code rollback.*})
 */
public record ControlLoopSettings(DriftSettings drift, Duration rateWindow, double defaultLinkBitsPerSecond,
        Duration solveTimeout, Duration solvePoll, RetryBackoff retry, Duration livenessTimeout, RollbackRule rollback)
        implements Serializable {
    /** Settings with the default rollback rule ({@code rollback.*} defaults). */
    public ControlLoopSettings(DriftSettings drift, Duration rateWindow, double defaultLinkBitsPerSecond,
            Duration solveTimeout, Duration solvePoll, RetryBackoff retry, Duration livenessTimeout) {
        this(drift, rateWindow, defaultLinkBitsPerSecond, solveTimeout, solvePoll, retry, livenessTimeout,
                new RollbackRule(ControllerOptions.ROLLBACK_MARGIN.defaultValue(),
                        ControllerOptions.ROLLBACK_MIN_SAMPLES.defaultValue()));
    }

    public ControlLoopSettings {
        Objects.requireNonNull(drift, "drift settings");
        Objects.requireNonNull(rateWindow, "rate window");
        Objects.requireNonNull(solveTimeout, "solve timeout");
        Objects.requireNonNull(solvePoll, "solve poll");
        Objects.requireNonNull(retry, "retry backoff");
        Objects.requireNonNull(livenessTimeout, "liveness timeout");
        Objects.requireNonNull(rollback, "rollback rule");
    }

    /** The control loop's settings from the controller's configuration. */
    public static ControlLoopSettings of(ControllerConfig config) {
        return new ControlLoopSettings(config.drift(), config.rateWindow(), config.defaultLinkBitsPerSecond(),
                config.solveTimeout(), config.solvePoll(), config.solveRetry(), config.livenessTimeout(),
                config.outcomes().rollbackRule());
    }
}
