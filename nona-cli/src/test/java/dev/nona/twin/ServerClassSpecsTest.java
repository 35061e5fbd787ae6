package dev.nona.twin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nona.workload.ColdStartCost;
import dev.nona.workload.ServerClass;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class ServerClassSpecsTest {

    @Test
    void parseClasses_inOrder_serversNumberedClassByClass() {
        List<ServerClass> classes = ServerClassSpecs.parseClasses(List.of("a100:2:4e11:4e10", "cpu:3:2.5e10:1000000000"));

        assertThat(classes).containsExactly(new ServerClass("a100", 2, 4e11, 4e10), new ServerClass("cpu", 3, 2.5e10, 1e9));
        TwinOptions options = TwinOptions.ofClasses(classes, null, 1e10, 10, Map.of(), Map.of());
        assertThat(options.servers()).isEqualTo(5);
        assertThat(options.opsPerSecond()).isEqualTo((2 * 4e11 + 3 * 2.5e10) / 5);
        assertThat(options.classOf(1)).isZero();
        assertThat(options.classOf(2)).isEqualTo(1);
        assertThat(options.partCaches()).isTrue();
        assertThat(options.cacheSlots()).isZero();
    }

    @Test
    void parseClasses_badValues_nameTheOptionTheValueAndTheField() {
        assertThatThrownBy(() -> ServerClassSpecs.parseClasses(List.of("small:0:1e11:5e8")))
                .hasMessage("--server-class ('small:0:1e11:5e8'): COUNT (0) must be a whole number >= 1");
        assertThatThrownBy(() -> ServerClassSpecs.parseClasses(List.of("small:2.5:1e11:5e8")))
                .hasMessage("--server-class ('small:2.5:1e11:5e8'): COUNT (2.5) must be a whole number >= 1");
        assertThatThrownBy(() -> ServerClassSpecs.parseClasses(List.of("small:2:-1e11:5e8")))
                .hasMessage("--server-class ('small:2:-1e11:5e8'): OPS_PER_SECOND (-1e11) must be a finite number > 0");
        assertThatThrownBy(() -> ServerClassSpecs.parseClasses(List.of("small:2:1e11:-5")))
                .hasMessage("--server-class ('small:2:1e11:-5'): MEMORY_BYTES (-5) must be a finite number > 0");
        assertThatThrownBy(() -> ServerClassSpecs.parseClasses(List.of("small:2:1e11:Infinity")))
                .hasMessage("--server-class ('small:2:1e11:Infinity'): MEMORY_BYTES (Infinity) must be a finite number > 0");
        assertThatThrownBy(() -> ServerClassSpecs.parseClasses(List.of("small:2:NaN:5e8")))
                .hasMessage("--server-class ('small:2:NaN:5e8'): OPS_PER_SECOND (NaN) must be a finite number > 0");
        assertThatThrownBy(() -> ServerClassSpecs.parseClasses(List.of("small:2:1e11:lots")))
                .hasMessage("--server-class ('small:2:1e11:lots'): MEMORY_BYTES (lots) must be a finite number > 0");
        assertThatThrownBy(() -> ServerClassSpecs.parseClasses(List.of("small:2:1e11:1e400")))
                .hasMessage("--server-class ('small:2:1e11:1e400'): MEMORY_BYTES (1e400) must be a finite number > 0");
        assertThatThrownBy(() -> ServerClassSpecs.parseClasses(List.of("small:2:1e11")))
                .hasMessage("--server-class ('small:2:1e11') must be NAME:COUNT:OPS_PER_SECOND:MEMORY_BYTES");
        assertThatThrownBy(() -> ServerClassSpecs.parseClasses(List.of(" :2:1e11:5e8")))
                .hasMessage("--server-class (' :2:1e11:5e8'): NAME must not be blank");
        assertThatThrownBy(() -> ServerClassSpecs.parseClasses(List.of("a:1:1e11:5e8", "a:2:1e11:5e8")))
                .hasMessage("--server-class ('a:2:1e11:5e8'): class 'a' is given twice");
    }

    @Test
    void parseColdStart_fixedAndRate_badValuesNamed() {
        assertThat(ServerClassSpecs.parseColdStart("0.2:2e9")).isEqualTo(new ColdStartCost(0.2, 2e9));
        assertThat(ServerClassSpecs.parseColdStart("0:2e9")).isEqualTo(new ColdStartCost(0, 2e9));
        assertThatThrownBy(() -> ServerClassSpecs.parseColdStart("-1:2e9"))
                .hasMessage("--cold-start ('-1:2e9'): FIXED_SECONDS (-1) must be a finite number >= 0");
        assertThatThrownBy(() -> ServerClassSpecs.parseColdStart("0.2:0"))
                .hasMessage("--cold-start ('0.2:0'): LOAD_BYTES_PER_SECOND (0) must be a finite number > 0");
        assertThatThrownBy(() -> ServerClassSpecs.parseColdStart("0.2"))
                .hasMessage("--cold-start ('0.2') must be FIXED_SECONDS:LOAD_BYTES_PER_SECOND");
        assertThatThrownBy(() -> ServerClassSpecs.parseColdStart("x:2e9"))
                .hasMessage("--cold-start ('x:2e9'): FIXED_SECONDS (x) must be a finite number >= 0");
    }

    @Test
    void twinOptions_cacheSlotsWithPartCaches_isAnError() {
        assertThatThrownBy(() -> new TwinOptions(2, 1e12, 1e10, 3, 0.5, 10, Map.of(), Map.of(),
                List.of(new ServerClass("a", 2, 1e12, 1e9)), null))
                .hasMessage("--cache-slots (3) cannot be used with --server-class or --cold-start (the servers then "
                        + "cache parts by bytes)");
    }
}
