package dev.nona.controller.command;

import dev.nona.placement.OperatorRules;
import dev.nona.topics.record.CommandKind;
import dev.nona.topics.record.ControllerCommand;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The operator's commands in force: the latest state-setting command of every scope (pins, drains, tenant rules,
 * freeze), as the command operator keeps them and broadcasts them to the placement operator and the control loop.
 * Rollbacks are done once and not kept here. {@code sequence} grows with every change, so that a receiver keeps the
 * newest whatever the order it gets them in.
 *
 * @param sequence the number of changes so far, {@code >= 0}
 * @param byScope  per scope ({@link ControllerCommand#scope()}), the command in force (copied, sorted)
 */
public record ActiveCommands(long sequence, Map<String, ControllerCommand> byScope) {
    public static final ActiveCommands NONE = new ActiveCommands(0, Map.of());

    public ActiveCommands {
        byScope = Collections.unmodifiableMap(new TreeMap<>(byScope));
    }

    /**
     * With {@code command} in force (a state-setting one): an undrain, unfreeze, empty pin or empty tenant rule
     * removes its scope.
     */
    public ActiveCommands with(ControllerCommand command) {
        Map<String, ControllerCommand> next = new HashMap<>(byScope);
        boolean clears = switch (command.kind()) {
            case UNDRAIN_SERVER, UNFREEZE -> true;
            case PIN_MODEL, TENANT_RULE -> command.servers().isEmpty();
            case DRAIN_SERVER, FREEZE -> false;
            case ROLLBACK_TABLE -> throw new IllegalArgumentException("BUG: a rollback is not kept in force");
        };
        if (clears) {
            next.remove(command.scope());
        } else {
            next.put(command.scope(), command);
        }
        return new ActiveCommands(sequence + 1, next);
    }

    /**
     * With {@code command} applied, as the command operator applies it: {@link #with}, refused when the commands
     * would conflict.
     *
     * @throws IllegalArgumentException when they would (a server owned by two tenants), with the reason
     */
    public ActiveCommands apply(ControllerCommand command) {
        ActiveCommands next = with(command);
        next.rules();
        return next;
    }

    /** Whether re-optimisation is frozen. */
    public boolean frozen() {
        return byScope.containsKey("freeze");
    }

    /** The drained server ids. */
    public Set<String> drained() {
        Set<String> d = new HashSet<>();
        byScope.values().stream().filter(c -> c.kind() == CommandKind.DRAIN_SERVER).forEach(c -> d.add(c.server()));
        return d;
    }

    /** The commands as placement rules. @throws IllegalArgumentException when they conflict (a server owned twice) */
    public OperatorRules rules() {
        Map<String, Set<String>> pins = new HashMap<>();
        Map<String, OperatorRules.TenantRule> tenants = new HashMap<>();
        for (ControllerCommand c : byScope.values()) {
            if (c.kind() == CommandKind.PIN_MODEL) {
                pins.put(c.model(), Set.copyOf(c.servers()));
            } else if (c.kind() == CommandKind.TENANT_RULE) {
                tenants.put(c.tenant(), new OperatorRules.TenantRule(Set.copyOf(c.servers()), c.maxShare()));
            }
        }
        return new OperatorRules(drained(), pins, tenants);
    }
}
