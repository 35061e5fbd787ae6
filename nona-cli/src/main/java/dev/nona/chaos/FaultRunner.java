package dev.nona.chaos;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Plays a {@link ChaosSchedule} on its own thread, from a start time: each fault begins at its planned time and
 * ends after its duration; when ending one took longer than planned (a broker's restart on a loaded machine), the
 * rest of the schedule moves by the delay, so that each fault still has its gap after the one before. Notes when each actually began and ended. Fails (at {@link #await()}) when an injector fails.
 */
final class FaultRunner {
    /**
     * A fault as it was done.
     *
     * @param beganMillis from the start of the traffic
     * @param endedMillis from the start of the traffic, when its end returned (-1: never ends)
     */
    record Injected(ScheduledFault fault, long beganMillis, long endedMillis) {
        Map<String, Object> toJson() {
            Map<String, Object> m = new LinkedHashMap<>(fault.toJson());
            m.put("plannedAtSeconds", m.remove("atSeconds"));
            m.put("plannedDurationSeconds", m.remove("durationSeconds"));
            m.put("atSeconds", beganMillis / 1000.0);
            m.put("durationSeconds", endedMillis < 0 ? "for good" : (endedMillis - beganMillis) / 1000.0);
            return m;
        }
    }

    private final ChaosSchedule schedule;
    private final Map<FaultKind, FaultInjector> injectors = new EnumMap<>(FaultKind.class);
    private final Consumer<String> log;
    private final List<Injected> injected = new ArrayList<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private Thread thread;

    FaultRunner(ChaosSchedule schedule, List<FaultInjector> all, Consumer<String> log) {
        this.schedule = schedule;
        this.log = log;
        for (FaultInjector i : all) {
            i.kinds().forEach(k -> injectors.put(k, i));
        }
        for (ScheduledFault f : schedule.faults()) {
            if (!injectors.containsKey(f.kind())) {
                throw new IllegalArgumentException("no injector does fault " + f.kind().key());
            }
        }
    }

    /** The kinds the injectors can do. */
    static Set<FaultKind> kinds(List<FaultInjector> all) {
        Set<FaultKind> out = EnumSet.noneOf(FaultKind.class);
        all.forEach(i -> out.addAll(i.kinds()));
        return out;
    }

    /** Starts playing, with the traffic's start at {@code t0} ({@link System#nanoTime()}). */
    void start(long t0) {
        thread = new Thread(() -> {
            try {
                play(t0);
            } catch (InterruptedException stopped) {
                Thread.currentThread().interrupt();
            } catch (Throwable t) {
                failure.set(t);
            }
        }, "nona-chaos-faults");
        thread.setDaemon(true);
        thread.start();
    }

    private void play(long t0) throws Exception {
        long shift = 0; // how late the schedule runs: the faults after a slow restart move with it
        for (ScheduledFault f : schedule.faults()) {
            FaultInjector injector = injectors.get(f.kind());
            sleepUntil(t0, f.atMillis() + shift);
            injector.begin(f);
            long began = sinceStart(t0); // in effect from here (a burst's 5 MB payload takes a while to build)
            shift = Math.max(shift, began - f.atMillis());
            log.accept("fault " + f.kind().key() + (f.server().isEmpty() ? "" : " " + f.server()) + " began at "
                    + began / 1000.0 + " s (planned " + f.atMillis() / 1000.0 + " s)");
            long ended = -1;
            if (f.kind() != FaultKind.SERVER_SILENT_FOR_GOOD) {
                sleepUntil(t0, began + f.durationMillis());
                injector.end(f);
                ended = sinceStart(t0);
                shift = Math.max(shift, ended - f.endMillis());
                log.accept("fault " + f.kind().key() + " ended at " + ended / 1000.0 + " s");
            }
            synchronized (this) {
                injected.add(new Injected(f, began, ended));
            }
        }
    }

    private static long sinceStart(long t0) {
        return (System.nanoTime() - t0) / 1_000_000;
    }

    private static void sleepUntil(long t0, long atMillis) throws InterruptedException {
        long wait = atMillis - sinceStart(t0);
        if (wait > 0) {
            Thread.sleep(wait);
        }
    }

    /** Whether faults are still to come or under way. */
    boolean running() {
        return thread.isAlive();
    }

    /** Waits until every fault is done; throws what an injector threw. */
    void await() throws InterruptedException {
        thread.join();
        check();
    }

    /** Throws what an injector threw, if one did. */
    void check() {
        Throwable t = failure.get();
        if (t != null) {
            throw new IllegalStateException("a fault failed: " + t.getMessage(), t);
        }
    }

    synchronized List<Injected> injected() {
        return List.copyOf(injected);
    }
}
