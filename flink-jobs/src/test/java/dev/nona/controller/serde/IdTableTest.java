package dev.nona.controller.serde;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

final class IdTableTest {
    private static byte[] fragment(int i) {
        return new byte[] {(byte) i, (byte) (i >>> 8), (byte) (i >>> 16)};
    }

    @Test
    void get_findsAnIdByValue_notOnlyTheInstanceStored() {
        IdTable table = new IdTable();
        table.put("sérveur-1", fragment(1));
        assertThat(table.get(new String("sérveur-1"))).containsExactly(fragment(1));
        assertThat(table.get("sérveur-2")).isNull();
    }

    @Test
    void halfFull_doubles_andKeepsEveryEntry() {
        IdTable table = new IdTable();
        int n = 3 * IdTable.MIN_SLOTS; // two doublings
        for (int i = 0; i < n; i++) {
            table.put("s" + i, fragment(i));
        }
        assertThat(table.size()).isEqualTo(n);
        assertThat(table.capacity()).isEqualTo(8 * IdTable.MIN_SLOTS);
        for (int i = 0; i < n; i++) {
            assertThat(table.get("s" + i)).as("s%d", i).containsExactly(fragment(i));
        }
    }

    @Test
    void halfFullAtItsLargest_isCleared() {
        IdTable table = new IdTable();
        int half = IdTable.MAX_SLOTS / 2;
        for (int i = 0; i < half; i++) {
            table.put("s" + i, fragment(i));
        }
        assertThat(table.size()).isEqualTo(half);
        assertThat(table.capacity()).isEqualTo(IdTable.MAX_SLOTS);
        table.put("one-more", fragment(-1));
        assertThat(table.size()).isEqualTo(1);
        assertThat(table.capacity()).isEqualTo(IdTable.MAX_SLOTS);
        assertThat(table.get("s0")).isNull();
        assertThat(table.get("one-more")).containsExactly(fragment(-1));
    }
}
