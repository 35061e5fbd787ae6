package dev.nona.controller.loop;

import dev.nona.controller.ControllerConfig;
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
 */
public record ControlLoopSettings(DriftSettings drift, Duration rateWindow, double defaultLinkBitsPerSecond,
        Duration solveTimeout, Duration solvePoll, RetryBackoff retry, Duration livenessTimeout) implements Serializable {
    public ControlLoopSettings {
        Objects.requireNonNull(drift, "drift settings");
        Objects.requireNonNull(rateWindow, "rate window");
        Objects.requireNonNull(solveTimeout, "solve timeout");
        Objects.requireNonNull(solvePoll, "solve poll");
        Objects.requireNonNull(retry, "retry backoff");
        Objects.requireNonNull(livenessTimeout, "liveness timeout");
    }

    /** The control loop's settings from the controller's configuration. */
    public static ControlLoopSettings of(ControllerConfig config) {
        return new ControlLoopSettings(config.drift(), config.rateWindow(), config.defaultLinkBitsPerSecond(),
                config.solveTimeout(), config.solvePoll(), config.solveRetry(), config.livenessTimeout());
    }
}
