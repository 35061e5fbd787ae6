package dev.nona.controller.loop;

import dev.nona.controller.optimize.SolveInput;
import dev.nona.controller.optimize.SolveResult;
import dev.nona.controller.optimize.TableGate;
import dev.nona.topics.record.ControllerEventType;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The control loop's log lines for a solve's verdict (one per solve, so INFO). */
final class LoopLog {
    private static final Logger LOG = LoggerFactory.getLogger(ControlLoopFunction.class);

    private LoopLog() {}

    static void verdict(SolveInput input, SolveResult result, TableGate.Verdict verdict) {
        if (!result.diagnostic().isEmpty()) {
            LOG.warn("Solve for {} models: {}; cause: {}", input.dags().size(), result.diagnostic(), input.cause());
        }
        if (verdict.publish() != null && verdict.publish().fallback()) {
            LOG.warn("Published fallback table v{}: no table keeps the link stable (smallest rho {}); cause: {}",
                    verdict.publish().version(), result.linkLoad(), input.cause());
        } else if (verdict.publish() != null) {
            LOG.info("Published table v{} for {} models: objective {} (current {}), rho {}, solved in {} ms; cause: {}",
                    verdict.publish().version(), input.dags().size(), result.objective(), result.currentObjective(),
                    result.linkLoad(), Math.round(result.solveMillis()), input.cause());
        } else if (!result.feasible()) {
            LOG.warn("Load still infeasible (rho {}): keeping the fallback table; cause: {}", result.linkLoad(),
                    input.cause());
        } else {
            String reason = verdict.events().stream()
                    .filter(e -> e.type() == ControllerEventType.TABLE_REJECTED)
                    .map(e -> (String) e.details().get("reason")).filter(Objects::nonNull).findFirst()
                    .orElse("objective " + result.objective() + " does not beat the current " + result.currentObjective());
            LOG.info("Rejected solved table: {}; solved in {} ms; cause: {}", reason, Math.round(result.solveMillis()),
                    input.cause());
        }
    }
}
