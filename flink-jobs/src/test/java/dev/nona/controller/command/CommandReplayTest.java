package dev.nona.controller.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.topics.record.ControllerCommand;
import java.util.List;
import org.junit.jupiter.api.Test;

final class CommandReplayTest {
    @Test
    void read_inOrder_theLatestOfEveryScopeInForce_rollbacksNotRedone_conflictsRefused() {
        CommandReplay r = new CommandReplay();
        r.read(ControllerCommand.drain("d3", 1, "s3", true));
        r.read(ControllerCommand.drain("d4", 2, "s4", true));
        r.read(ControllerCommand.freeze("f", 3, true));
        r.read(ControllerCommand.drain("u4", 4, "s4", false));
        r.read(ControllerCommand.rollback("rb", 5, 7));
        r.read(ControllerCommand.tenantRule("acme", 6, "acme", List.of("s0"), 0.5));
        r.read(ControllerCommand.tenantRule("beta", 7, "beta", List.of("s0"), 1)); // s0 owned twice: refused
        r.unreadable();
        r.read(ControllerCommand.pin("p", 8, "fig1", List.of("s1")));
        assertThat(r.inForce().drained()).containsExactly("s3");
        assertThat(r.inForce().frozen()).isTrue();
        assertThat(r.inForce().rules().tenants()).containsOnlyKeys("acme");
        assertThat(r.inForce().rules().pins()).containsOnlyKeys("fig1");
        assertThat(r.inForce().sequence()).as("one change per command applied").isEqualTo(6);
        assertThat(r.summary()).isEqualTo("4 command(s) in force (6 applied, 1 rollback(s) not redone, 2 refused)");
    }

    @Test
    void read_theSameAsTheCommandOperatorApplies() {
        ActiveCommands byOperator = ActiveCommands.NONE.apply(ControllerCommand.drain("d3", 1, "s3", true))
                .apply(ControllerCommand.freeze("f", 2, true));
        CommandReplay r = new CommandReplay();
        r.read(ControllerCommand.drain("d3", 1, "s3", true));
        r.read(ControllerCommand.freeze("f", 2, true));
        assertThat(r.inForce()).isEqualTo(byOperator);
        assertThat(new CommandReplay().inForce()).isEqualTo(ActiveCommands.NONE);
    }
}
