package dev.nona.controller.serde;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.nona.topics.record.DecisionExplanation;
import dev.nona.topics.record.DecisionPart;
import dev.nona.topics.record.PlacementDecision;
import dev.nona.topics.record.StageAssignment;
import dev.nona.topics.record.StageAssignments;
import dev.nona.topics.serde.TopicJson;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a {@link PlacementDecision} as exactly the JSON bytes the topic serde ({@code kafka-topics}' Jackson
 * {@code JsonSerde}) writes, field for field and byte for byte, only faster: a decision names every original task
 * of its model with a server, in the DAG's task order, so the same task and server ids repeat in every decision.
 * A stage {@code {"task":"<task>","server":"<server>"}} is written from two cached parts:
 * {@code {"task":"<task>","server":} per model and position (checked against the task id) and {@code "<server>"}}
 * per server id (the ids used lately, by reference; else a plain ASCII id straight from its characters, others
 * from an open-addressing table by the id), $O(1)$ per stage whatever the number of servers (a cache of whole stage
 * fragments stopped hitting at thousands of servers, tasks x servers instances). Ids are encoded once, and like the
 * per-request strings (request id, tenant) plain printable ASCII is copied directly, anything else goes through
 * Jackson (so escaping is Jackson's); numbers are written as Jackson writes them ({@link Double#toString(double)} for
 * the predicted JCT, cached per value). The other fields are
 * written into one reused buffer; {@link #write} returns a new exact-size array (a Kafka producer keeps it until
 * it is sent) into which the stages' parts are copied once. The optional {@code explanation} follows, and the compact
 * form (no {@code stages}) is written as Jackson omits a null field.
 *
 * <p>Not thread safe: one per operator or serialization-schema instance. Caches are bounded (cleared when full).
 */
public final class DecisionWriter {
    /** Most cached stage fragments or strings before a cache is cleared. */
    static final int CACHE_LIMIT = 1 << 16;
    private static final int DOUBLE_SLOTS = 64;
    /** Doubles below this that are whole microseconds are written by {@link #micros}. */
    private static final double MICROS_LIMIT = 100;
    private static final long EIGHT_DIGITS = 100_000_000L;
    /** Slots of the server cache at first; it doubles when half full, up to {@link #MAX_SERVER_SLOTS}. */
    private static final int MIN_SERVER_SLOTS = 1 << 10;
    /** The server cache's largest table; when half full at that size, it is cleared. */
    static final int MAX_SERVER_SLOTS = 1 << 18;
    /** Slots of the cache of recent server ids (a power of two). */
    private static final int RECENT = 64;

    private static final byte[] SCHEMA_VERSION = ascii("{\"schemaVersion\":");
    private static final byte[] REQUEST_ID = ascii(",\"requestId\":");
    private static final byte[] MODEL = ascii(",\"model\":");
    private static final byte[] TENANT = ascii(",\"tenant\":");
    private static final byte[] TABLE_VERSION = ascii(",\"tableVersion\":");
    private static final byte[] FALLBACK_TRUE = ascii(",\"fallback\":true,\"stages\":[");
    private static final byte[] FALLBACK_FALSE = ascii(",\"fallback\":false,\"stages\":[");
    private static final byte[] COMPACT_FALLBACK_TRUE = ascii(",\"fallback\":true");
    private static final byte[] COMPACT_FALLBACK_FALSE = ascii(",\"fallback\":false");
    private static final byte[] PREDICTED_JCT = ascii("],\"predictedJctSeconds\":");
    private static final byte[] COMPACT_PREDICTED_JCT = ascii(",\"predictedJctSeconds\":");
    private static final byte[] EXPLANATION = ascii(",\"explanation\":{\"parts\":[");
    private static final byte[] PART_SERVER = ascii("{\"server\":");
    private static final byte[] PART_STAGES = ascii(",\"stages\":");
    private static final byte[] PART_TASKS = ascii(",\"tasks\":[");
    private static final byte[] PART_WARM_TRUE = ascii(",\"warm\":true,\"predictedBacklogSeconds\":");
    private static final byte[] PART_WARM_FALSE = ascii(",\"warm\":false,\"predictedBacklogSeconds\":");
    private static final byte[] PART_ONGOING = ascii(",\"ongoingRequests\":");
    private static final byte[] PART_TARGET_TRUE = ascii(",\"targetMet\":true}");
    private static final byte[] PART_TARGET_FALSE = ascii(",\"targetMet\":false}");
    private static final byte[] CHOICES = ascii("],\"choices\":[");
    private static final byte[] CHOICE_PROBABILITY = ascii("],\"choiceProbability\":");
    private static final byte[] TABLE_JCT = ascii(",\"tableJctSeconds\":");
    private static final byte[] WAIT = ascii(",\"waitSeconds\":");
    private static final byte[] EVENT_TIME = ascii(",\"eventTime\":");
    private static final byte[] TASK = ascii("{\"task\":");
    private static final byte[] SERVER = ascii(",\"server\":");

    private final Map<String, Positions> positions = new HashMap<>();
    /**
     * Server cache, open addressing with linear probing: slot {@code k} holds the id at {@code 2k} and its
     * {@code "<server>"}} fragment at {@code 2k + 1}, side by side, so that a look-up of one of thousands of servers
     * costs one cache miss for the slot (ids are mostly the very instances cached, compared by reference first).
     */
    private Object[] servers = new Object[2 * MIN_SERVER_SLOTS];
    private int serverCount;
    /** {@link #serverSuffix}'s cache of the ids used lately and their fragments, {@link #RECENT} slots. */
    private final String[] recentServers = new String[RECENT];
    private final byte[][] recentSuffixes = new byte[RECENT][];
    private final Map<String, byte[]> strings = new HashMap<>();
    private byte[] buffer = new byte[256];
    private byte[][] scratch = new byte[64][];
    private int size;
    private final long[] doubleBits = new long[DOUBLE_SLOTS];
    private final byte[][] doubleText = new byte[DOUBLE_SLOTS][];

    /** The decision as UTF-8 JSON, identical to the topic serde's output. */
    public byte[] write(PlacementDecision d) {
        size = 0;
        raw(SCHEMA_VERSION);
        number(d.schemaVersion());
        raw(REQUEST_ID);
        string(d.requestId());
        raw(MODEL);
        List<StageAssignment> stages = d.stages();
        boolean compact = stages == null;
        int n = compact ? 0 : stages.size();
        Positions p = positions(d.model(), n);
        raw(p.quotedModel);
        raw(TENANT);
        string(d.tenant());
        raw(TABLE_VERSION);
        number(d.tableVersion());
        if (compact) {
            raw(d.fallback() ? COMPACT_FALLBACK_TRUE : COMPACT_FALLBACK_FALSE);
        } else {
            raw(d.fallback() ? FALLBACK_TRUE : FALLBACK_FALSE);
        }
        int head = size;
        if (scratch.length < 2 * n) {
            scratch = new byte[2 * n][];
        }
        int stageBytes = Math.max(0, n - 1);
        String lastServer = null;
        byte[] suffix = null;
        StageAssignments ids = stages instanceof StageAssignments a ? a : null; // read without building assignments
        for (int i = 0; i < n; i++) {
            String task;
            String server;
            if (ids != null) {
                task = ids.task(i);
                server = ids.server(i);
            } else {
                StageAssignment stage = stages.get(i);
                task = stage.task();
                server = stage.server();
            }
            byte[] prefix = taskPrefix(p, i, task);
            if (server != lastServer) { // consecutive stages mostly share a server (the same id instance)
                lastServer = server;
                suffix = serverSuffix(lastServer);
            }
            scratch[2 * i] = prefix;
            scratch[2 * i + 1] = suffix;
            stageBytes += prefix.length + suffix.length;
        }
        raw(compact ? COMPACT_PREDICTED_JCT : PREDICTED_JCT);
        decimal(d.predictedJctSeconds());
        raw(EVENT_TIME);
        number(d.eventTime());
        if (d.explanation() != null) {
            explanation(d.explanation());
        }
        ensure(1);
        buffer[size++] = '}';
        // Header and tail are in the buffer; the stages are copied once, straight into the exact-size result.
        int tail = size - head;
        byte[] out = new byte[head + stageBytes + tail];
        System.arraycopy(buffer, 0, out, 0, head);
        int at = head;
        for (int i = 0; i < 2 * n; i++) {
            if (i > 0 && (i & 1) == 0) {
                out[at++] = ',';
            }
            byte[] f = scratch[i];
            System.arraycopy(f, 0, out, at, f.length);
            at += f.length;
        }
        System.arraycopy(buffer, head, out, at, tail);
        return out;
    }

    /** {@code ,"explanation":{...}} as Jackson writes {@link DecisionExplanation} (ids from the string cache). */
    private void explanation(DecisionExplanation e) {
        raw(EXPLANATION);
        List<DecisionPart> parts = e.parts();
        for (int i = 0; i < parts.size(); i++) {
            DecisionPart p = parts.get(i);
            if (i > 0) {
                comma();
            }
            raw(PART_SERVER);
            byte[] server = serverSuffix(p.server()); // "<server>"} from the stages' cache, without its brace
            raw(server, server.length - 1);
            raw(PART_STAGES);
            number(p.stages());
            if (p.tasks() != null) {
                raw(PART_TASKS);
                List<String> tasks = p.tasks();
                for (int t = 0; t < tasks.size(); t++) {
                    if (t > 0) {
                        comma();
                    }
                    raw(cachedString(tasks.get(t)));
                }
                ensure(1);
                buffer[size++] = ']';
            }
            raw(p.warm() ? PART_WARM_TRUE : PART_WARM_FALSE);
            decimal(p.predictedBacklogSeconds());
            raw(PART_ONGOING);
            number(p.ongoingRequests());
            raw(p.targetMet() ? PART_TARGET_TRUE : PART_TARGET_FALSE);
        }
        raw(CHOICES);
        List<Integer> choices = e.choices();
        for (int i = 0; i < choices.size(); i++) {
            if (i > 0) {
                comma();
            }
            number(choices.get(i));
        }
        raw(CHOICE_PROBABILITY);
        decimal(e.choiceProbability());
        raw(TABLE_JCT);
        decimal(e.tableJctSeconds());
        raw(WAIT);
        decimal(e.waitSeconds());
        ensure(1);
        buffer[size++] = '}';
    }

    private void comma() {
        ensure(1);
        buffer[size++] = ',';
    }

    /** The cached prefixes of a model's stages, by position, building them for the first {@code n} positions. */
    private Positions positions(String model, int n) {
        Positions p = positions.get(model);
        if (p == null) {
            if (positions.size() >= CACHE_LIMIT) {
                positions.clear();
            }
            p = new Positions(n, cachedString(model));
            positions.put(model, p);
        } else if (p.tasks.length < n) {
            p.grow(n);
        }
        return p;
    }

    /** {@code {"task":"<task>","server":}, cached for position {@code i} of the model. */
    private byte[] taskPrefix(Positions p, int i, String task) {
        String known = p.tasks[i];
        if (known != null && (known == task || known.equals(task))) {
            return p.prefixes[i];
        }
        byte[] quoted = cachedString(task);
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
     * {@link #tableSuffix} (escaped by Jackson).
     */
    private byte[] serverSuffix(String server) {
        int k = slot(server.hashCode(), RECENT - 1);
        if (recentServers[k] == server) {
            return recentSuffixes[k];
        }
        byte[] suffix = plainSuffix(server);
        if (suffix == null) {
            suffix = tableSuffix(server);
        }
        recentServers[k] = server;
        recentSuffixes[k] = suffix;
        return suffix;
    }

    /** {@code "<s>"}} when {@code s} is plain printable ASCII (nothing to escape), else null. */
    private static byte[] plainSuffix(String s) {
        byte[] b = plainQuoted(s, 1);
        if (b != null) {
            b[b.length - 1] = '}';
        }
        return b;
    }

    /**
     * {@code "<server>"}}, cached by server id in an open-addressing table (probes compare the stored id by reference,
     * then by value): every server of a large cluster keeps its entry (a direct-mapped cache lost about a quarter of 10,000
     * servers' entries to collisions, each loss a map look-up and a new fragment).
     */
    private byte[] tableSuffix(String server) {
        int h = server.hashCode();
        Object[] table = servers;
        int mask = table.length / 2 - 1;
        int slot = slot(h, mask);
        for (Object known = table[2 * slot]; known != null; known = table[2 * slot]) {
            if (known == server || known.equals(server)) {
                return (byte[]) table[2 * slot + 1];
            }
            slot = (slot + 1) & mask;
        }
        if (2 * (serverCount + 1) > mask + 1) {
            resizeServers();
            table = servers;
            mask = table.length / 2 - 1;
            slot = slot(h, mask);
            while (table[2 * slot] != null) {
                slot = (slot + 1) & mask;
            }
        }
        byte[] quoted = cachedString(server);
        byte[] suffix = Arrays.copyOf(quoted, quoted.length + 1);
        suffix[quoted.length] = '}';
        table[2 * slot] = server;
        table[2 * slot + 1] = suffix;
        serverCount++;
        return suffix;
    }

    /** A slot for hash {@code h}: ids like s1, s2, ... spread out. */
    private static int slot(int h, int mask) {
        return ((h * 0x9E3779B9) ^ ((h * 0x9E3779B9) >>> 16)) & mask;
    }

    /** Doubles the server cache, or clears it when it is at its largest. */
    private void resizeServers() {
        Object[] old = servers;
        if (old.length / 2 >= MAX_SERVER_SLOTS) {
            Arrays.fill(old, null);
            serverCount = 0;
            return;
        }
        Object[] table = new Object[2 * old.length];
        int mask = table.length / 2 - 1;
        for (int i = 0; i < old.length; i += 2) {
            if (old[i] != null) {
                int slot = slot(old[i].hashCode(), mask);
                while (table[2 * slot] != null) {
                    slot = (slot + 1) & mask;
                }
                table[2 * slot] = old[i];
                table[2 * slot + 1] = old[i + 1];
            }
        }
        servers = table;
    }

    /** The quoted JSON string, from the cache (ids of tasks, servers and models repeat). */
    private byte[] cachedString(String s) {
        byte[] b = strings.get(s);
        if (b == null) {
            b = plainQuoted(s);
            if (b == null) {
                b = jackson(s);
            }
            if (strings.size() >= CACHE_LIMIT) {
                strings.clear();
            }
            strings.put(s, b);
        }
        return b;
    }

    /** A quoted JSON string that is not cached: plain printable ASCII directly, anything else through Jackson. */
    private void string(String s) {
        int n = s.length();
        ensure(n + 2);
        int at = size;
        buffer[at++] = '"';
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c >= 0x7F || c == '"' || c == '\\') {
                raw(jackson(s));
                return;
            }
            buffer[at++] = (byte) c;
        }
        buffer[at++] = '"';
        size = at;
    }

    /** {@code "<s>"} when {@code s} is plain printable ASCII (nothing to escape), else null. */
    private static byte[] plainQuoted(String s) {
        return plainQuoted(s, 0);
    }

    /** As {@link #plainQuoted(String)}, with {@code room} more bytes at the end (zero). */
    private static byte[] plainQuoted(String s, int room) {
        int n = s.length();
        byte[] b = new byte[n + 2 + room];
        b[0] = '"';
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c >= 0x7F || c == '"' || c == '\\') {
                return null;
            }
            b[i + 1] = (byte) c;
        }
        b[n + 1] = '"';
        return b;
    }

    private static byte[] jackson(String s) {
        try {
            return TopicJson.mapper().writeValueAsBytes(s);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("BUG: cannot write a string as JSON", e);
        }
    }

    /**
     * A double as Jackson writes it ({@link Double#toString(double)}). A whole number of microseconds in
     * $[0, 100)$ (the explanation's rounded figures, which differ per request and would miss the cache) is written
     * digit by digit, allocation-free: the shortest decimal of $k/10^6$, which is {@code Double.toString}'s text (JDK 19+
     * prints the shortest; on JDK 17 checked equal for every $k < 10^8$, and {@code DecisionWriterTest} checks a
     * sample); anything else goes through {@link #doubleBytes}.
     */
    private void decimal(double v) {
        if (v >= 0 && v < MICROS_LIMIT) {
            long k = Math.round(v * 1e6);
            if ((double) k / 1e6 == v) {
                micros((int) k);
                return;
            }
        }
        raw(doubleBytes(v));
    }

    /** {@code Double.toString(k / 1e6)} for {@code 0 <= k < 10^8}: {@code 0.0}, {@code 12.0345}, {@code 3.64E-4}. */
    private void micros(int k) {
        ensure(16);
        if (k >= 1000 || k == 0) {
            number(k / 1_000_000);
            buffer[size++] = '.';
            int fraction = k % 1_000_000;
            if (fraction == 0) {
                buffer[size++] = '0';
                return;
            }
            int digits = 6;
            while (fraction % 10 == 0) {
                fraction /= 10;
                digits--;
            }
            digitsOf(fraction, digits);
            return;
        }
        int length = k >= 100 ? 3 : k >= 10 ? 2 : 1;
        int exponent = length - 7;
        while (k % 10 == 0) {
            k /= 10;
            length--;
        }
        int scale = length == 3 ? 100 : length == 2 ? 10 : 1;
        buffer[size++] = (byte) ('0' + k / scale);
        buffer[size++] = '.';
        if (length == 1) {
            buffer[size++] = '0';
        } else {
            digitsOf(k % scale, length - 1);
        }
        buffer[size++] = 'E';
        buffer[size++] = '-';
        buffer[size++] = (byte) ('0' - exponent);
    }

    /** {@code value} as exactly {@code digits} decimal digits (leading zeros kept). */
    private void digitsOf(int value, int digits) {
        for (int i = size + digits - 1; i >= size; i--) {
            buffer[i] = (byte) ('0' + value % 10);
            value /= 10;
        }
        size += digits;
    }

    /**
     * Jackson writes a double with {@link Double#toString(double)}; a table's figures repeat, so the text is cached
     * per value (a small direct-mapped cache: one slot per hash of the bits; per-request figures mostly miss).
     */
    private byte[] doubleBytes(double v) {
        long bits = Double.doubleToRawLongBits(v);
        int slot = (int) ((bits ^ (bits >>> 29) ^ (bits >>> 43)) & (DOUBLE_SLOTS - 1));
        byte[] text = doubleText[slot];
        if (text == null || doubleBits[slot] != bits) {
            text = ascii(Double.toString(v));
            doubleBits[slot] = bits;
            doubleText[slot] = text;
        }
        return text;
    }

    /** A long as Jackson writes it; eight digits at a time in {@code int} arithmetic (cheaper than long division). */
    private void number(long v) {
        ensure(20);
        if (v < 0) {
            if (v == Long.MIN_VALUE) {
                raw(ascii(Long.toString(v)));
                return;
            }
            buffer[size++] = '-';
            v = -v;
        }
        if (v >= EIGHT_DIGITS) {
            long high = v / EIGHT_DIGITS;
            number(high);
            int low = (int) (v - high * EIGHT_DIGITS);
            for (int i = size + 7; i >= size; i--) {
                buffer[i] = (byte) ('0' + low % 10);
                low /= 10;
            }
            size += 8;
            return;
        }
        int x = (int) v;
        int digits = 1;
        for (int p = 10; digits < 8 && x >= p; p *= 10) {
            digits++;
        }
        int end = size + digits;
        for (int i = end - 1; i >= size; i--) {
            buffer[i] = (byte) ('0' + x % 10);
            x /= 10;
        }
        size = end;
    }

    private void raw(byte[] b) {
        raw(b, b.length);
    }

    /** The first {@code length} bytes of {@code b}. */
    private void raw(byte[] b, int length) {
        ensure(length);
        System.arraycopy(b, 0, buffer, size, length);
        size += length;
    }

    private void ensure(int more) {
        if (size + more > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, size + more));
        }
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** A model's stage prefixes by position: the task id last seen there and its fragment. */
    private static final class Positions {
        String[] tasks;
        byte[][] prefixes;

        final byte[] quotedModel;

        Positions(int n, byte[] quotedModel) {
            this.quotedModel = quotedModel;
            tasks = new String[0];
            prefixes = new byte[0][];
            grow(n);
        }

        void grow(int n) {
            tasks = Arrays.copyOf(tasks, n);
            prefixes = Arrays.copyOf(prefixes, n);
        }
    }
}
