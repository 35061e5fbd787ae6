package dev.nona.chaos;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a chaos run ({@link ChaosRun}) did and found: its settings and schedule, the faults as played, per invariant
 * with how soon decisions resumed after each ({@link Resumption}, and the most per kind), per invariant what was
 * checked and how often it broke (the first violations named), the requests' and the processes' counts.
 * {@link #held()} when no invariant broke; {@link #toJson()} is what {@code bin/nona bench chaos} prints.
 */
public record ChaosResult(ChaosRun.Settings settings, ChaosSchedule schedule, List<FaultRunner.Injected> injected,
        List<Resumption> resumptions, Map<String, Map<String, Long>> invariants, List<Violation> violations, long violationCount, int sent,
        int decided, long duplicates, long validDeadLettered, long deadLetters, long decisions, long tables,
        long malformedSent, long malformedStored, long malformedRefused, int controllerStarts,
        int controllerExits, int brokerStarts, double seconds) {
    public ChaosResult {
        injected = List.copyOf(injected);
        resumptions = List.copyOf(resumptions);
        if (resumptions.size() != injected.size()) {
            throw new IllegalArgumentException(injected.size() + " faults but " + resumptions.size() + " resumptions");
        }
        violations = List.copyOf(violations);
    }

    public boolean held() {
        return violationCount == 0;
    }

    public Map<String, Object> toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("seed", settings.seed());
        m.put("trafficSeconds", settings.trafficSeconds());
        m.put("rate", settings.rate());
        m.put("servers", settings.servers());
        m.put("models", settings.models());
        m.put("durationSeconds", seconds);
        List<Map<String, Object>> faults = new ArrayList<>();
        for (int i = 0; i < injected.size(); i++) {
            Map<String, Object> f = injected.get(i).toJson();
            f.putAll(resumptions.get(i).toJson());
            faults.add(f);
        }
        m.put("faultsInjected", faults);
        m.put("resumptionByKind", Resumption.byKind(injected, resumptions));
        m.put("invariantsHeld", held());
        m.put("invariants", invariants);
        Map<String, Object> requests = new LinkedHashMap<>();
        requests.put("sent", sent);
        requests.put("decided", decided);
        requests.put("undecided", sent - decided);
        requests.put("deadLettered", validDeadLettered);
        requests.put("duplicates", duplicates);
        m.put("requests", requests);
        m.put("malformed", Map.of("sent", malformedSent, "stored", malformedStored, "refused", malformedRefused));
        m.put("deadLetters", deadLetters);
        m.put("decisions", decisions);
        m.put("tablesPublished", tables);
        m.put("controllerStarts", controllerStarts);
        m.put("controllerExits", controllerExits);
        m.put("brokerStarts", brokerStarts);
        m.put("violations", violations.stream().map(Violation::toJson).toList());
        m.put("schedule", schedule.toJson());
        m.put("workDir", settings.workDir().toString());
        return m;
    }
}
