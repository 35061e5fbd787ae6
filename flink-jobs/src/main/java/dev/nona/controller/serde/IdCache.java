package dev.nona.controller.serde;

import static dev.nona.controller.serde.JsonBytes.ascii;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The JSON fragments of the ids that repeat in every decision, encoded once: a decision names every original task
 * of its model with a server, in the DAG's task order, so a stage {@code {"task":"<task>","server":"<server>"}} is
 * written from two cached halves:
 * <ul>
 *   <li>{@link #taskPrefix} {@code {"task":"<task>","server":} per model and position (checked against the task
 *       id);</li>
 *   <li>{@link #serverSuffix} {@code "<server>"}} per server id: the ids used lately, by reference; else a plain
 *       ASCII id straight from its characters; others from an {@link IdTable} by the id. $O(1)$ per stage whatever
 *       the number of servers (a cache of whole stage fragments stopped hitting at thousands of servers, tasks x
 *       servers instances).</li>
 * </ul>
 * and {@link #quoted} any other id (a model, a part's task) as a quoted JSON string. Escaping is Jackson's
 * ({@link JsonBytes#quoted}).
 *
 * <p>Not thread safe: one per {@link DecisionWriter}. Bounded: a map is cleared when it holds {@link #CACHE_LIMIT}
 * entries, the server table as {@link IdTable} says.
 */
final class IdCache {
    /** Most cached models or quoted ids before that cache is cleared. */
    static final int CACHE_LIMIT = 1 << 16;
    /** Slots of the cache of recent server ids (a power of two). */
    private static final int RECENT = 64;
    private static final byte[] TASK = ascii("{\"task\":");
    private static final byte[] SERVER = ascii(",\"server\":");

    private final Map<String, Positions> positions = new HashMap<>();
    private final Map<String, byte[]> strings = new HashMap<>();
    private final IdTable servers = new IdTable();
    /** {@link #serverSuffix}'s cache of the ids used lately and their fragments, {@link #RECENT} slots. */
    private final String[] recentServers = new String[RECENT];
    private final byte[][] recentSuffixes = new byte[RECENT][];

    /** The quoted JSON string, from the cache (ids of tasks, servers and models repeat). */
    byte[] quoted(String s) {
        byte[] b = strings.get(s);
        if (b == null) {
            b = JsonBytes.quoted(s);
            if (strings.size() >= CACHE_LIMIT) {
                strings.clear();
            }
            strings.put(s, b);
        }
        return b;
    }

    /** The cached prefixes of a model's stages, by position, with room for the first {@code n} positions. */
    Positions positions(String model, int n) {
        Positions p = positions.get(model);
        if (p == null) {
            if (positions.size() >= CACHE_LIMIT) {
                positions.clear();
            }
            p = new Positions(n, quoted(model));
            positions.put(model, p);
        } else if (p.tasks.length < n) {
            p.grow(n);
        }
        return p;
    }

    /** {@code {"task":"<task>","server":}, cached for position {@code i} of the model. */
    byte[] taskPrefix(Positions p, int i, String task) {
        String known = p.tasks[i];
        if (known != null && (known == task || known.equals(task))) {
            return p.prefixes[i];
        }
        byte[] quoted = quoted(task);
        byte[] prefix = new byte[TASK.length + quoted.length + SERVER.length];
        System.arraycopy(TASK, 0, prefix, 0, TASK.length);
        System.arraycopy(quoted, 0, prefix, TASK.length, quoted.length);
        System.arraycopy(SERVER, 0, prefix, TASK.length + quoted.length, SERVER.length);
        p.tasks[i] = task;
        p.prefixes[i] = prefix;
        return prefix;
    }

    /**
     * {@code "<server>"}}: from a small direct-mapped cache of the ids used lately (by reference: on a small cluster
     * every server keeps its slot), else built straight from a plain printable ASCII id (its characters were just read
     * to validate the decision, while an entry of a table of thousands of servers is a cache miss or two), else from
     * the {@link IdTable} (escaped by Jackson).
     */
    byte[] serverSuffix(String server) {
        int k = IdTable.slot(server.hashCode(), RECENT - 1);
        if (recentServers[k] == server) {
            return recentSuffixes[k];
        }
        byte[] suffix = JsonBytes.plainQuoted(server, 1);
        if (suffix != null) {
            suffix[suffix.length - 1] = '}';
        } else {
            suffix = tableSuffix(server);
        }
        recentServers[k] = server;
        recentSuffixes[k] = suffix;
        return suffix;
    }

    private byte[] tableSuffix(String server) {
        byte[] suffix = servers.get(server);
        if (suffix == null) {
            byte[] quoted = quoted(server);
            suffix = Arrays.copyOf(quoted, quoted.length + 1);
            suffix[quoted.length] = '}';
            servers.put(server, suffix);
        }
        return suffix;
    }

    /** A model's quoted name and its stage prefixes by position: the task id last seen there and its fragment. */
    static final class Positions {
        final byte[] quotedModel;
        private String[] tasks;
        private byte[][] prefixes;

        private Positions(int n, byte[] quotedModel) {
            this.quotedModel = quotedModel;
            tasks = new String[0];
            prefixes = new byte[0][];
            grow(n);
        }

        private void grow(int n) {
            tasks = Arrays.copyOf(tasks, n);
            prefixes = Arrays.copyOf(prefixes, n);
        }
    }
}
