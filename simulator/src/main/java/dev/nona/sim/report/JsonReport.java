package dev.nona.sim.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nona.sim.JobKind;
import dev.nona.sim.SimWorkload;
import dev.nona.sim.engine.SimResult;
import dev.nona.sim.stats.LogHistogram;

/** One run as the JSON that {@code nona simulate} prints (the CLI contract). NaN/infinite values print as null. */
public final class JsonReport {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private JsonReport() {
    }

    public static ObjectNode of(SimResult r) {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("policy", r.policy());
        o.put("jobs", r.jobs());
        put(o, "meanJctSeconds", r.meanJctSeconds());
        put(o, "p99JctSeconds", r.p99JctSeconds());
        put(o, "linkUtilization", r.linkUtilization());
        put(o, "meanLinkWaitSeconds", r.meanLinkWaitSeconds());
        put(o, "eventsPerSecond", r.eventsPerSecond());
        ArrayNode models = o.putArray("models");
        ArrayNode background = MAPPER.createArrayNode();
        for (SimResult.ClassResult c : r.classes()) {
            ObjectNode m = (c.kind() == JobKind.INFERENCE ? models : background).addObject();
            m.put("name", c.name());
            put(m, "meanJctSeconds", c.jct().mean());
            put(m, "p99JctSeconds", c.jct().quantile(0.99));
            m.put("completed", c.jct().count());
        }
        o.set("background", background);
        put(o, "inferenceMeanJctSeconds", r.inference().mean());
        put(o, "inferenceP99JctSeconds", r.inference().quantile(0.99));
        o.put("completed", r.all().count());
        o.put("events", r.events());
        put(o, "simulatedSeconds", r.simulatedSeconds());
        put(o, "wallSeconds", r.wallSeconds());
        o.put("maxJobsInFlight", r.maxJobsInFlight());
        o.put("truncated", r.truncated());
        o.put("arrivalsStopped", r.arrivalsStopped());
        o.put("inFlightLimit", r.inFlightLimit());
        o.put("unstable", r.unstable());
        o.put("percentileRelativeAccuracy", new LogHistogram().relativeAccuracy());
        o.put("coldStarts", r.coldStarts());
        o.put("reloads", r.reloads());
        o.put("evictions", r.evictions());
        o.put("memoryViolations", r.memoryViolations());
        ArrayNode classes = o.putArray("classes");
        for (SimResult.ServerClassResult c : r.serverClasses()) {
            ObjectNode k = classes.addObject();
            k.put("name", c.name());
            put(k, "utilisation", c.utilisation());
            k.put("partsRun", c.partsRun());
        }
        return o;
    }

    private static void put(ObjectNode o, String field, double v) {
        if (Double.isFinite(v)) {
            o.put(field, v);
        } else {
            o.putNull(field);
        }
    }

    public static String toJson(SimResult r) {
        return of(r).toString();
    }

    /**
     * The run's JSON with the workload's {@code inferenceJctLowerBoundSeconds} ({@link
     * SimWorkload#inferenceJctLowerBoundSeconds()}): no placement's mean inference JCT can be lower.
     */
    public static String toJson(SimResult r, SimWorkload w) {
        ObjectNode o = of(r);
        put(o, "inferenceJctLowerBoundSeconds", w.inferenceJctLowerBoundSeconds());
        return o.toString();
    }
}
