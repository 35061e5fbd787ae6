package dev.nona.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

final class GcLogTest {
    private static final long MIB = 1L << 20;

    @Test
    void pauses_readsBeforeAfterCommittedAndPause_inOrder() {
        List<GcLog.Pause> p = GcLog.pauses(List.of(
                "[0.004s][info][gc] Using G1",
                "[1.234s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 24M->3M(256M) 3.123ms",
                "[2.000s][info][gc] GC(1) Pause Young (Concurrent Start) (G1 Humongous Allocation) 51M->40M(256M) 5.5ms",
                "[2.100s][info][gc] GC(2) Concurrent Mark Cycle 12.345ms",
                "[51.457s][info][gc] GC(22) Pause Full (Diagnostic Command) 123M->41M(144M) 214.514ms"));
        assertThat(p).extracting(GcLog.Pause::id).containsExactly(0L, 1L, 22L);
        assertThat(p.get(0)).isEqualTo(new GcLog.Pause(0, "Young (Normal) (G1 Evacuation Pause)", 24 * MIB, 3 * MIB,
                256 * MIB, 3.123));
        assertThat(p.get(2).afterBytes()).isEqualTo(41 * MIB);
        assertThat(p.get(2).millis()).isEqualTo(214.514);
    }

    @Test
    void heapAfterGcBlock_givesTheAfterFigureToTheKilobyte() {
        List<GcLog.Pause> p = GcLog.pauses(List.of(
                "[2.628s][debug][gc,heap] GC(1) Heap before GC invocations=1 (full 0):",
                "[2.628s][debug][gc,heap] GC(1)  garbage-first heap   total 397312K, used 8604K [0x0000000687400000, 0x0)",
                "[2.694s][debug][gc,heap] GC(1) Heap after GC invocations=2 (full 1):",
                "[2.694s][debug][gc,heap] GC(1)  garbage-first heap   total 69632K, used 15923K [0x0000000687400000, 0x0)",
                "[2.694s][debug][gc,heap] GC(1)   region size 4096K, 0 young (0K), 0 survivors (0K)",
                "[2.694s][debug][gc,heap] GC(1)  Metaspace       used 9103K, committed 9280K, reserved 1114112K",
                "[2.694s][info ][gc     ] GC(1) Pause Full (System.gc()) 15M->15M(68M) 66.153ms",
                "[3.000s][info ][gc     ] GC(2) Pause Young (Normal) (G1 Evacuation Pause) 30M->16M(68M) 3.0ms"));
        assertThat(p.get(0).afterBytes()).as("the block's used figure, not the line's 15M").isEqualTo(15923L << 10);
        assertThat(p.get(0).beforeBytes()).isEqualTo(15 * MIB);
        assertThat(p.get(1).afterBytes()).as("no block: the line's figure").isEqualTo(16 * MIB);
    }

    @Test
    void pauses_unitsKilobytesAndGigabytes() {
        GcLog.Pause p = GcLog.pauses(List.of("[9.9s][info][gc] GC(7) Pause Remark 900K->800K(2G) 0.5ms")).get(0);
        assertThat(p.beforeBytes()).isEqualTo(900L << 10);
        assertThat(p.afterBytes()).isEqualTo(800L << 10);
        assertThat(p.heapBytes()).isEqualTo(2L << 30);
    }

    @Test
    void requestedFull_isAFullCollectionByJcmdOrSystemGc_notAnotherFullOrYoung() {
        List<GcLog.Pause> p = GcLog.pauses(List.of(
                "[1s][info][gc] GC(1) Pause Full (Diagnostic Command) 10M->5M(64M) 20.0ms",
                "[2s][info][gc] GC(2) Pause Full (System.gc()) 10M->5M(64M) 20.0ms",
                "[3s][info][gc] GC(3) Pause Full (G1 Compaction Pause) 60M->50M(64M) 90.0ms",
                "[4s][info][gc] GC(4) Pause Young (Normal) (System.gc()) 10M->5M(64M) 2.0ms"));
        assertThat(p).extracting(GcLog.Pause::requestedFull).containsExactly(true, true, false, false);
    }
}
