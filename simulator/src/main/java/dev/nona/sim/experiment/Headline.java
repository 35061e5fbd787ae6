package dev.nona.sim.experiment;

import dev.nona.sim.engine.SimResult;
import java.util.Map;

/** The paper's headline claims at one load point, checked against the measured results and stated plainly. */
final class Headline {
    private Headline() {
    }

    static void write(ExperimentContext ctx, Map<String, SimResult> r, String where) {
        ctx.md("%n## At %s%n", where);
        Fig3LoadSweep.table(ctx, r);
        SimResult nona = r.get("nona");
        if (nona == null) {
            return;
        }
        double n = nona.meanJctSeconds();
        ctx.md("%nClaims (the paper: Nona 70-202x better than Random, better than Opportunistic and Spark, within 10%% of Expert):%n");
        claim(ctx, r, "random", n, "Nona >= 10x better than random", x -> x / n >= 10);
        claim(ctx, r, "opportunistic", n, "Nona better than opportunistic", x -> x > n);
        claim(ctx, r, "spark-fair", n, "Nona better than spark-fair", x -> x > n);
        claim(ctx, r, "expert", n, "Nona within 10% of expert", x -> n <= 1.10 * x);
        if (r.containsKey("nona-star") && r.containsKey("expert")) {
            double star = r.get("nona-star").meanJctSeconds();
            double ex = r.get("expert").meanJctSeconds();
            ctx.md("- Nona* (one table, solved at load %.1f) / expert = %.3f: %s", Scenario.REFERENCE_LOAD, star / ex,
                    star <= 1.15 * ex ? "within 15%" : "NOT within 15%");
        }
    }

    private static void claim(ExperimentContext ctx, Map<String, SimResult> r, String other, double nona, String text,
                              java.util.function.DoublePredicate holds) {
        if (!r.containsKey(other)) {
            return;
        }
        double x = r.get(other).meanJctSeconds();
        ctx.md("- %s: %s / nona = %.3g -> %s", text, other, x / nona, holds.test(x) ? "holds" : "DOES NOT HOLD");
    }
}
