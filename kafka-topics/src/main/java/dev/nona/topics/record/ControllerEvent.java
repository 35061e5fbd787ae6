package dev.nona.topics.record;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * A value of {@code controller-events} (no key): something the controller did or saw, for monitoring.
 *
 * @param schemaVersion {@link SchemaVersions#CURRENT}
 * @param type          what happened
 * @param time          when, epoch milliseconds, {@code >= 0}
 * @param details       named facts (objective, solve time, link load, table versions, ...); keys not blank, values
 *                      strings, booleans or finite numbers (copied, sorted by key)
 */
@JsonPropertyOrder({"schemaVersion", "type", "time", "details"})
public record ControllerEvent(
        @JsonProperty(required = true) int schemaVersion,
        @JsonProperty(required = true) ControllerEventType type,
        @JsonProperty(required = true) long time,
        @JsonProperty(required = true) Map<String, Object> details) implements TopicRecord {

    public ControllerEvent {
        Fields.requireVersion(schemaVersion);
        Fields.requirePresent("type", type);
        Fields.requireNonNegative("time", time);
        details = copyDetails(details);
    }

    public static ControllerEvent of(ControllerEventType type, long time, Map<String, ?> details) {
        return new ControllerEvent(SchemaVersions.CURRENT, type, time,
                details == null ? null : new HashMap<String, Object>(details));
    }

    private static Map<String, Object> copyDetails(Map<String, Object> details) {
        Fields.requirePresent("details", details);
        TreeMap<String, Object> copy = new TreeMap<>();
        for (Map.Entry<String, Object> e : details.entrySet()) {
            String name = e.getKey();
            if (name == null || name.isBlank()) {
                throw new InvalidRecordException("field 'details' has a blank key ('" + name + "')");
            }
            copy.put(name, requireScalar(name, e.getValue()));
        }
        return Collections.unmodifiableMap(copy);
    }

    private static Object requireScalar(String name, Object value) {
        if (value instanceof Double d && (d.isNaN() || d.isInfinite())
                || value instanceof Float f && (f.isNaN() || f.isInfinite())) {
            throw new InvalidRecordException("field 'details." + name + "' (" + value + ") must be finite");
        }
        if (value instanceof String || value instanceof Number || value instanceof Boolean) {
            return value;
        }
        throw new InvalidRecordException("field 'details." + name + "' (" + value
                + ") must be a string, a number or a boolean");
    }

    @Override
    public String key() {
        return null;
    }
}
