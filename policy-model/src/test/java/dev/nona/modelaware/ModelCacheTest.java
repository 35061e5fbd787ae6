package dev.nona.modelaware;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

final class ModelCacheTest {
    @Test
    void load_full_evictsLeastRecentlyUsedUntilItFits() {
        ModelCache cache = new ModelCache(1000);
        cache.load("a", 400);
        cache.load("b", 400);
        cache.touch("a");

        assertThat(cache.load("c", 300)).containsExactly("b");
        assertThat(cache.models()).containsExactly("a", "c");
        assertThat(cache.usedMb()).isEqualTo(700.0);
    }

    @Test
    void load_bigModel_evictsSeveral() {
        ModelCache cache = new ModelCache(1000);
        cache.load("a", 300);
        cache.load("b", 300);
        cache.load("c", 300);

        assertThat(cache.load("big", 900)).containsExactly("a", "b", "c");
        assertThat(cache.models()).containsExactly("big");
    }

    @Test
    void load_present_refreshesWithoutEviction() {
        ModelCache cache = new ModelCache(500);
        cache.load("a", 250);
        cache.load("b", 250);

        assertThat(cache.load("a", 250)).isEmpty();
        assertThat(cache.models()).containsExactly("b", "a");
    }

    @Test
    void load_largerThanCapacity_namesModelAndSizes() {
        ModelCache cache = new ModelCache(100);
        assertThatThrownBy(() -> cache.load("t5-3b", 11_000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("t5-3b").hasMessageContaining("11000.0").hasMessageContaining("100.0");
    }

    @Test
    void constructor_nonPositiveCapacity_isRejected() {
        assertThatThrownBy(() -> new ModelCache(Double.NaN)).hasMessageContaining("capacityMb (NaN)");
    }
}
