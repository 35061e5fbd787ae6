package dev.nona.controller.loop;

import java.util.ArrayList;
import java.util.List;

/**
 * The tables (their solved JSON) the control loop rolled back and will not publish again until what it learned
 * changes; the last {@link #MAX} only.
 *
 * @param tableJsons oldest first (copied)
 */
public record RolledBack(List<String> tableJsons) {
    /** Tables remembered at most. */
    public static final int MAX = 4;
    /** None. */
    public static final RolledBack NONE = new RolledBack(List.of());

    public RolledBack {
        tableJsons = List.copyOf(tableJsons);
    }

    /** These and {@code tableJson} (the oldest dropped beyond {@link #MAX}). */
    public RolledBack with(String tableJson) {
        List<String> next = new ArrayList<>(tableJsons);
        next.add(tableJson);
        return new RolledBack(next.subList(Math.max(0, next.size() - MAX), next.size()));
    }

    public boolean contains(String tableJson) {
        return tableJson != null && tableJsons.contains(tableJson);
    }
}
