package dev.nona.placement;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Per server, the parts of models too large for it that one placer sent it and that it still holds as far as its
 * reports tell, oldest first ({@link LiveServers#loadingPart}). No report names them (reports give the models a
 * server holds and their bytes, not which parts), so the placer keeps them itself: this class is that bookkeeping,
 * in seconds on the ledger's clock, and {@link LiveServers} binds it to its servers, reports and memory.
 *
 * <p>Not thread safe; one per placer.
 */
final class PartMarks {
    /** Per server: its parts, oldest first; null: none. */
    private final List<List<Mark>> marks = new ArrayList<>();
    /** Scratch of {@link #keepHeld}: per model, the bytes of its parts kept so far and what the report holds. */
    private final Map<String, double[]> keptBytes = new HashMap<>();

    /** A new server, holding no part. */
    void addServer() {
        marks.add(null);
    }

    /** Whether server {@code s} holds parts. */
    boolean any(int s) {
        List<Mark> m = marks.get(s);
        return m != null && !m.isEmpty();
    }

    /** How many parts server {@code s} holds. */
    int count(int s) {
        List<Mark> m = marks.get(s);
        return m == null ? 0 : m.size();
    }

    /** The warm pool of server {@code s}'s {@code i}-th part, oldest first. */
    int pool(int s, int i) {
        return marks.get(s).get(i).pool;
    }

    /** Server {@code s}'s part of warm pool {@code pool}, or null. */
    Mark find(int s, int pool) {
        List<Mark> m = s < marks.size() ? marks.get(s) : null;
        for (int i = 0; m != null && i < m.size(); i++) {
            if (m.get(i).pool == pool) {
                return m.get(i);
            }
        }
        return null;
    }

    /**
     * Server {@code s} took a request of part pool {@code pool} of {@code model} ({@code bytes}) at {@code now}, done
     * at {@code done}, starting there at {@code starts}. A part already there is only marked used (and pinned from
     * {@code starts} when no earlier request still runs it); a new one evicts the model's older parts there, oldest
     * first, until {@code memory} says the model's parts fit there. Returns whether the server's parts changed.
     */
    boolean mark(int s, int pool, String model, double bytes, double now, double done, double starts,
            ServerMemory memory) {
        List<Mark> m = created(s);
        double sum = bytes;
        for (Mark k : m) {
            if (k.pool == pool) {
                if (!(k.runsUntil > now)) { // else the requests sent before still pin it from their start
                    k.pinsFrom = starts;
                }
                k.used = Math.max(k.used, now);
                k.runsUntil = Math.max(k.runsUntil, done);
                return false;
            }
            sum += k.model.equals(model) ? k.bytes : 0;
        }
        for (int i = 0; i < m.size() && !memory.fits(s, sum); ) {
            if (m.get(i).model.equals(model)) {
                sum -= m.remove(i).bytes;
            } else {
                i++;
            }
        }
        m.add(new Mark(pool, model, bytes, now, done, starts));
        return true;
    }

    /** Server {@code s} knows part {@code p} (of warm pool {@code pool}) again; a part of the pool there is replaced. */
    void restore(int s, int pool, LiveServers.KnownPart p) {
        List<Mark> m = created(s);
        m.removeIf(k -> k.pool == pool); // the later use is kept, in its place by age
        m.add(new Mark(pool, p.model(), p.bytes(), p.usedSeconds(), p.dueSeconds(), p.usedSeconds()));
    }

    /** Server {@code s}'s parts, an empty list made for it if it had none. */
    private List<Mark> created(int s) {
        List<Mark> m = marks.get(s);
        if (m == null) {
            m = new ArrayList<>(2);
            marks.set(s, m);
        }
        return m;
    }

    /** Every part, as {@link LiveServers#knownParts} gives them: servers by {@code ids}, pools by {@code poolNames}. */
    List<LiveServers.KnownPart> known(String[] ids, List<String> poolNames) {
        List<LiveServers.KnownPart> out = new ArrayList<>();
        for (int s = 0; s < marks.size(); s++) {
            List<Mark> m = marks.get(s);
            for (int i = 0; m != null && i < m.size(); i++) {
                Mark k = m.get(i);
                out.add(new LiveServers.KnownPart(ids[s], poolNames.get(k.pool), k.model, k.bytes, k.used, k.due));
            }
        }
        return out;
    }

    /** The bytes of server {@code s}'s parts of {@code model} other than pool {@code except}'s, used since {@code since}. */
    double otherBytes(int s, String model, int except, double since) {
        List<Mark> m = s < marks.size() ? marks.get(s) : null;
        double b = 0;
        for (int i = 0; m != null && i < m.size(); i++) {
            Mark k = m.get(i);
            if (k.pool != except && k.used >= since && k.model.equals(model)) {
                b += k.bytes;
            }
        }
        return b;
    }

    /**
     * Server {@code s}'s parts kept as far as a report made at {@code madeAt} shows them ({@code heldBytes}: a model's
     * bytes there): per model, newest first, while they add up to no more; a part due after the report is kept and
     * not counted ({@link LiveServers#heldBytes}). Returns whether any was forgotten.
     */
    boolean keepHeld(int s, double madeAt, ToDoubleFunction<String> heldBytes) {
        List<Mark> m = marks.get(s);
        if (m == null || m.isEmpty()) {
            return false;
        }
        keptBytes.clear();
        boolean changed = false;
        for (int i = m.size() - 1; i >= 0; i--) { // newest first: a model's oldest parts are the ones that go
            Mark k = m.get(i);
            if (k.due > madeAt) {
                continue;
            }
            double[] kept = keptBytes.computeIfAbsent(k.model, x -> new double[] {0, heldBytes.applyAsDouble(x) + 1});
            if (kept[0] + k.bytes <= kept[1]) { // a report rounds its bytes
                kept[0] += k.bytes;
            } else {
                kept[1] = -1; // and every older part of the model
                m.remove(i);
                changed = true;
            }
        }
        return changed;
    }

    /**
     * A part of a model too large for its server, as a placer sent it there, and when it last sent it a request of
     * that part (seconds on the ledger's clock).
     */
    static final class Mark {
        final int pool;
        final String model;
        final double bytes;
        double used;
        /** When the server's reports are due to show the part: sent, plus the backlog there then, its load included. */
        final double due;
        /** When the latest request sent with the part there is predicted done: till then a stage of it pins it. */
        double runsUntil;
        /**
         * When the earliest of the requests sent with the part there that are predicted still running was predicted
         * to start: from then a stage of one of them pins it.
         */
        double pinsFrom;

        Mark(int pool, String model, double bytes, double used, double due, double pinsFrom) {
            this.pool = pool;
            this.model = model;
            this.bytes = bytes;
            this.used = used;
            this.due = due;
            this.runsUntil = due;
            this.pinsFrom = pinsFrom;
        }
    }
}
