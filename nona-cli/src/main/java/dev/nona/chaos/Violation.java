package dev.nona.chaos;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A broken invariant of a chaos run: which, about what (a request id, a server, a table id), when (epoch ms: the
 * request's time, or the record's) and the seed that replays the run.
 */
public record Violation(Invariant invariant, String subject, long atMillis, String detail, long seed) {
    /** The invariants a chaos run checks. */
    public enum Invariant {
        EVERY_REQUEST_DECIDED("every-request-decided"),
        NO_STAGE_ON_SILENT_SERVER("no-stage-on-silent-server"),
        TABLE_VERSIONS_NEVER_GO_BACK("table-versions-never-go-back"),
        NO_VALID_REQUEST_DEAD_LETTERED("no-valid-request-dead-lettered");

        private final String key;

        Invariant(String key) {
            this.key = key;
        }

        public String key() {
            return key;
        }
    }

    public Map<String, Object> toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("invariant", invariant.key());
        m.put("subject", subject);
        m.put("at", Instant.ofEpochMilli(atMillis).toString());
        m.put("detail", detail);
        m.put("seed", seed);
        return m;
    }

    @Override
    public String toString() {
        return invariant.key() + " violated by " + subject + " at " + Instant.ofEpochMilli(atMillis) + ": " + detail
                + " (replay: --seed " + seed + ")";
    }
}
