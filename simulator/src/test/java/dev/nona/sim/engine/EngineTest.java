package dev.nona.sim.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.nona.modelaware.ModelProfile;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class EngineTest {
    /**
     * A driver whose tasks are items with a service time and a model each; routes each task's model to its server
     * when it submits it (as drivers do, which is what LRU recency counts); records when each finishes.
     */
    private static final class Tasks implements Engine.Driver {
        final Map<Long, Double> seconds = new HashMap<>();
        final Map<Long, Integer> model = new HashMap<>();
        final Map<Long, Double> done = new HashMap<>();
        final List<String> loads = new ArrayList<>();
        final List<String> starts = new ArrayList<>();
        Engine engine;

        void submitAt(double at, int server, long item, double service, int m) {
            seconds.put(item, service);
            model.put(item, m);
            engine.after(at - engine.now(), () -> {
                if (m != Engine.NO_MODEL && engine.caches() != null) {
                    engine.caches().place(server, m);
                }
                engine.submitTask(server, item, service);
            });
        }

        @Override
        public void arrival(int stream) {
            throw new AssertionError("no arrivals");
        }

        @Override
        public double taskSeconds(int server, long item) {
            return seconds.get(item);
        }

        @Override
        public int taskModel(long item) {
            return model.get(item);
        }

        @Override
        public void taskStarted(int server, long item, boolean cold) {
            starts.add(item + (cold ? " cold@" : " warm@") + engine.now());
        }

        @Override
        public void taskDone(int server, long item) {
            done.put(item, engine.now());
        }

        @Override
        public void modelLoaded(int server, int m, double loadSeconds) {
            loads.add(server + ":" + m + "@" + engine.now());
        }
    }

    private static ModelProfile model(String name, double sizeMb, double coldStartSeconds) {
        return new ModelProfile(name, sizeMb, coldStartSeconds, 1, 0);
    }

    private static Tasks engine(int servers, ModelCaches caches) {
        Tasks d = new Tasks();
        d.engine = new Engine(servers, d, new Engine.Options(caches, 0));
        return d;
    }

    @Test
    void coldStart_delaysTheFirstTaskOfAModelByItsLoadTime_thenItRunsWarm() {
        ModelCaches caches = ModelCaches.of(2, 1000, List.of(model("a", 100, 3)));
        Tasks d = engine(2, caches);
        double[] backlog = new double[1];
        d.submitAt(0, 0, 1, 1, 0);
        d.engine.after(1, () -> backlog[0] = d.engine.queuedWorkSeconds(0));
        d.submitAt(0, 0, 2, 1, 0); // queued behind the cold start: warm when it starts
        d.submitAt(10, 0, 3, 1, 0);
        d.submitAt(10, 1, 4, 1, 0); // the other server has its own cache: cold there

        d.engine.run(() -> false, Long.MAX_VALUE);

        assertThat(d.done.get(1L)).isCloseTo(3 + 1, within(1e-12));
        assertThat(d.done.get(2L)).isCloseTo(3 + 1 + 1, within(1e-12));
        assertThat(d.done.get(3L)).isCloseTo(10 + 1, within(1e-12));
        assertThat(d.done.get(4L)).isCloseTo(10 + 3 + 1, within(1e-12));
        assertThat(d.engine.coldStarts()).isEqualTo(2);
        assertThat(d.loads).containsExactly("0:0@3.0", "1:0@13.0");
        assertThat(backlog[0]).as("the running cold start's rest (2 s load + 1 s) and the queued 1 s").isCloseTo(4, within(1e-12));
        assertThat(caches.registry().isLoaded("s0", "a")).isTrue();
    }

    @Test
    void add_aModelAfterTheEngineStarted_startsColdWithItsOwnLoadTime_andANameTwiceIsRejected() {
        ModelCaches caches = ModelCaches.of(1, 1000, List.of(model("a", 100, 3)));
        Tasks d = engine(1, caches);
        int b = caches.add(model("b", 100, 5));
        d.submitAt(0, 0, 1, 1, b);

        d.engine.run(() -> false, Long.MAX_VALUE);

        assertThat(b).isEqualTo(1);
        assertThat(caches.modelIndex("b")).isEqualTo(1);
        assertThat(d.done.get(1L)).isCloseTo(5 + 1, within(1e-12));
        assertThatThrownBy(() -> caches.add(model("a", 50, 1))).hasMessage("model 'a' is listed twice");
    }

    @Test
    void lru_underMemoryPressure_evictsTheLeastRecentlyPlacedModel_whichThenStartsColdAgain() {
        // 1000 MB hold two of the three 400 MB models.
        ModelCaches caches = ModelCaches.of(1, 1000, List.of(model("a", 400, 2), model("b", 400, 2), model("c", 400, 2)));
        Tasks d = engine(1, caches);
        d.submitAt(0, 0, 1, 1, 0); // a: cold, done at 3
        d.submitAt(10, 0, 2, 1, 1); // b: cold, done at 13
        d.submitAt(20, 0, 3, 1, 0); // a: warm (and now the most recently used), done at 21
        d.submitAt(30, 0, 4, 1, 2); // c: cold, evicts b (least recently used), done at 33
        d.submitAt(40, 0, 5, 1, 1); // b: cold again, evicts a, done at 43
        d.submitAt(50, 0, 6, 1, 2); // c: warm, done at 51

        d.engine.run(() -> false, Long.MAX_VALUE);

        assertThat(d.done.get(3L)).isCloseTo(21, within(1e-12));
        assertThat(d.done.get(5L)).isCloseTo(43, within(1e-12));
        assertThat(d.done.get(6L)).isCloseTo(51, within(1e-12));
        assertThat(d.engine.coldStarts()).isEqualTo(4);
        assertThat(caches.evictions()).isEqualTo(2);
        assertThat(caches.registry().residents("s0")).as("least recently used first").containsExactly("b", "c");
    }

    @Test
    void place_routesAModelToAServer_residentButNotLoadedUntilItsColdStartEnds() {
        ModelCaches caches = ModelCaches.of(1, 1000, List.of(model("a", 600, 2), model("b", 600, 2)));
        caches.place(0, 0);
        assertThat(caches.registry().isResident("s0", "a")).isTrue();
        assertThat(caches.registry().isLoaded("s0", "a")).isFalse();
        caches.place(0, 1);
        assertThat(caches.registry().isResident("s0", "a")).isFalse();
        assertThat(caches.evictions()).isEqualTo(1);
    }

    @Test
    void modelCachesOff_aTaskWithAModelRunsAtOnce() {
        Tasks d = engine(1, null);
        d.submitAt(0, 0, 1, 1, 0);
        d.engine.run(() -> false, Long.MAX_VALUE);
        assertThat(d.done.get(1L)).isEqualTo(1.0);
        assertThat(d.engine.coldStarts()).isZero();
    }

    @Test
    void corePools_reserveAndRelease_andAreOffByDefault() {
        Engine e = new Engine(2, new Tasks(), new Engine.Options(null, 4));
        e.reserveCores(1, 3);
        assertThat(e.hasRoom(1, 1)).isTrue();
        assertThat(e.hasRoom(1, 2)).isFalse();
        assertThat(e.hasRoom(0, 4)).isTrue();
        assertThatThrownBy(() -> e.reserveCores(1, 2)).hasMessageContaining("server 1 has 1 free cores");
        e.releaseCores(1, 3);
        assertThat(e.hasRoom(1, 4)).isTrue();

        Engine off = new Engine(1, new Tasks(), Engine.Options.NONE);
        assertThat(off.hasRoom(0, 1000)).isTrue();
        assertThatThrownBy(() -> off.reserveCores(0, 1)).hasMessageContaining("core pools are off");
    }

    @Test
    void timers_runInTimeOrder_tiesInSchedulingOrder() {
        Tasks d = engine(1, null);
        List<String> order = new ArrayList<>();
        d.engine.after(2, () -> order.add("b"));
        d.engine.after(1, () -> {
            order.add("a");
            d.engine.after(1, () -> order.add("c")); // also at 2, scheduled after b
        });
        d.engine.run(() -> false, Long.MAX_VALUE);
        assertThat(order).containsExactly("a", "b", "c");
        assertThat(d.engine.events()).isEqualTo(3);
        assertThatThrownBy(() -> d.engine.after(-1, () -> { })).hasMessageContaining("delay (-1.0)");
    }

    @Test
    void modelCaches_mustCoverTheEnginesServers() {
        ModelCaches caches = ModelCaches.of(2, 1000, List.of(model("a", 100, 1)));
        assertThatThrownBy(() -> new Engine(3, new Tasks(), new Engine.Options(caches, 0)))
                .hasMessageContaining("model caches cover 2 servers, the engine has 3");
    }

    @Test
    void runUntil_followsAnOuterClock_workSubmittedBetweenCallsStartsThen() {
        // as an executor twin would: advance to each wall-clock tick, submit what arrived meanwhile
        ModelCaches caches = ModelCaches.of(1, 1000, List.of(model("a", 100, 2)));
        Tasks d = engine(1, caches);
        d.engine.runUntil(0.5);
        assertThat(d.engine.now()).isEqualTo(0.5);
        for (long item = 1; item <= 2; item++) {
            d.seconds.put(item, 1.0);
            d.model.put(item, 0);
        }
        d.engine.caches().place(0, 0);
        d.engine.submitTask(0, 1, 1.0); // starts cold at 0.5: loaded at 2.5, done at 3.5
        d.engine.runUntil(3.0);
        assertThat(d.done).isEmpty();
        assertThat(d.engine.nextEventTime()).isEqualTo(3.5);
        d.engine.submitTask(0, 2, 1.0); // queued behind it, warm
        d.engine.runUntil(10);
        assertThat(d.done).containsEntry(1L, 3.5).containsEntry(2L, 4.5);
        assertThat(d.starts).containsExactly("1 cold@0.5", "2 warm@3.5");
        assertThat(d.engine.now()).isEqualTo(10.0);
        assertThat(d.engine.nextEventTime()).isInfinite();
        assertThatThrownBy(() -> d.engine.runUntil(9)).hasMessageContaining("until (9.0) must not be before now (10.0)");
    }
}
