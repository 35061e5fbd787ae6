package dev.nona.controller.serde;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

final class IdCacheTest {
    private static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    @Test
    void taskPrefix_perModelAndPosition_rebuiltWhenThePositionHoldsAnotherTask() {
        IdCache ids = new IdCache();
        IdCache.Positions p = ids.positions("fig1", 2);
        assertThat(text(p.quotedModel)).isEqualTo("\"fig1\"");
        byte[] first = ids.taskPrefix(p, 1, "t2");
        assertThat(text(first)).isEqualTo("{\"task\":\"t2\",\"server\":");
        assertThat(ids.taskPrefix(p, 1, new String("t2"))).isSameAs(first);
        assertThat(text(ids.taskPrefix(p, 1, "tâche\t2"))).isEqualTo("{\"task\":\"tâche\\t2\",\"server\":");
        assertThat(ids.positions("fig1", 4)).as("grown in place").isSameAs(p);
        assertThat(text(ids.taskPrefix(p, 3, "t4"))).isEqualTo("{\"task\":\"t4\",\"server\":");
    }

    @Test
    void serverSuffix_plainOrEscaped_closesTheStage() {
        IdCache ids = new IdCache();
        assertThat(text(ids.serverSuffix("s0"))).isEqualTo("\"s0\"}");
        assertThat(text(ids.serverSuffix("s\"2"))).isEqualTo("\"s\\\"2\"}");
        byte[] escaped = ids.serverSuffix("sérveur-λ");
        assertThat(text(escaped)).isEqualTo("\"sérveur-λ\"}");
        assertThat(ids.serverSuffix(new String("sérveur-λ"))).as("from the table, by value").isSameAs(escaped);
    }

    @Test
    void quoted_cachedPerId() {
        IdCache ids = new IdCache();
        byte[] model = ids.quoted("modèle");
        assertThat(text(model)).isEqualTo("\"modèle\"");
        assertThat(ids.quoted(new String("modèle"))).isSameAs(model);
    }
}
