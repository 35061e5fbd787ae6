package dev.nona.sim.experiment;

import dev.nona.sim.engine.SimResult;
import java.util.Map;
import java.util.function.DoublePredicate;

/** The paper's headline claims at one load point, checked against the measured results and stated plainly. */
final class Headline {
    private Headline() {
    }

    static void write(ExperimentContext ctx, Map<String, SimResult> r, String where) {
        ctx.md("%n## At %s%n", where);
        Fig3LoadSweep.table(ctx, r);
        ctx.md("%nClaims (the paper: Nona 70-202x better than Random, better than Opportunistic and Spark, within 10%% of Expert):");
        claims(ctx, r, "nona", "expert", "Nona as the paper defines it (state-oblivious)");
        claims(ctx, r, "nona-controller", "expert-jsq", "Nona as the controller deploys it (servers from telemetry reported once a "
                + "second and its own decisions since)");
        claims(ctx, r, "nona-jsq", "expert-jsq", "Nona with exact, instantaneous queues");
        if (r.containsKey("nona-star") && r.containsKey("expert")) {
            double star = r.get("nona-star").meanJctSeconds();
            double ex = r.get("expert").meanJctSeconds();
            ctx.md("%n- Nona* (one table, solved at load %.1f) / expert = %.3f: %s", Scenario.REFERENCE_LOAD, star / ex,
                    star <= 1.15 * ex ? "within 15%" : "NOT within 15%");
        }
        ctx.md("%nOver %d seeds, with the reason the paper's Nona loses to live schedulers here: `bin/nona experiment headline`.",
                HeadlineSeeds.SEEDS);
    }

    private static void claims(ExperimentContext ctx, Map<String, SimResult> r, String subject, String expert, String what) {
        SimResult s = r.get(subject);
        if (s == null) {
            return;
        }
        double n = s.meanJctSeconds();
        ctx.md("%n%s (`%s`):%n", what, subject);
        claim(ctx, r, "random", subject, n, "at least 10x better than random", x -> x / n >= 10);
        claim(ctx, r, "opportunistic", subject, n, "better than opportunistic", x -> x > n);
        claim(ctx, r, "spark-fair", subject, n, "better than spark-fair", x -> x > n);
        claim(ctx, r, expert, subject, n, "within 10% of " + expert, x -> n <= 1.10 * x);
    }

    private static void claim(ExperimentContext ctx, Map<String, SimResult> r, String other, String subject, double value,
                              String text, DoublePredicate holds) {
        if (!r.containsKey(other)) {
            return;
        }
        double x = r.get(other).meanJctSeconds();
        ctx.md("- %s: %s / %s = %.3g -> %s", text, other, subject, x / value, holds.test(x) ? "holds" : "DOES NOT HOLD");
    }
}
