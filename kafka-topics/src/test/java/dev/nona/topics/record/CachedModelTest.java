package dev.nona.topics.record;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.junit.jupiter.api.Test;

final class CachedModelTest {
    /** resnet 1,000 bytes by the catalog, vgg 2,000, bert not in it. */
    private static final ToDoubleFunction<String> CATALOG =
            m -> Map.of("resnet", 1_000.0, "vgg", 2_000.0).getOrDefault(m, 0.0);

    @Test
    void holdsWhole_whenTheReportedBytesCoverTheCatalogs_withinAByte() {
        assertThat(new CachedModel("resnet", 1_000).holdsWhole(1_000)).isTrue();
        assertThat(new CachedModel("resnet", 999).holdsWhole(999.6)).as("a report rounds its bytes").isTrue();
        assertThat(new CachedModel("resnet", 999).holdsWhole(1_000)).isTrue();
        assertThat(new CachedModel("resnet", 998).holdsWhole(1_000)).as("one part evicted").isFalse();
        assertThat(new CachedModel("resnet", 400).holdsWhole(1_000)).isFalse();
    }

    @Test
    void aModelWithoutBytesInTheCatalog_isWholeAsReported() {
        assertThat(new CachedModel("bert", 1).holdsWhole(0)).isTrue();
        assertThat(new CachedModel("bert", 1).holdsWhole(Double.NaN)).isTrue();
    }

    @Test
    void wholeAndPartly_splitAReportsModels_inTheirOrder() {
        List<CachedModel> held = List.of(new CachedModel("vgg", 1_500), new CachedModel("bert", 7),
                new CachedModel("resnet", 1_000));

        assertThat(CachedModel.whole(held, CATALOG)).containsExactly("bert", "resnet");
        assertThat(CachedModel.partly(held, CATALOG)).containsExactly("vgg");
    }
}
