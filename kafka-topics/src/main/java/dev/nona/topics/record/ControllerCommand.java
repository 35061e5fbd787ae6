package dev.nona.topics.record;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A value of {@code controller-commands} (key: {@link #scope()}): an operator's command to the controller,
 * acknowledged on {@code controller-events} ({@code COMMAND_APPLIED}) or rejected to {@code dead-letters}.
 *
 * <p>The topic is compacted and keyed by scope, so that it keeps the latest command of every scope: a controller
 * that starts afresh reads it from the beginning and holds the same pins, drains, tenant rules and freeze as
 * before. The scopes: {@code pin:<model>}, {@code drain:<server>} (drain and undrain), {@code tenant:<tenant>},
 * {@code freeze} (freeze and unfreeze), {@code rollback}.
 *
 * <p>Each kind has its own fields; a field of another kind must be absent (so that a typo in the kind is not
 * silently read as another command):
 * <ul>
 *   <li>{@code PIN_MODEL}: {@code model}, {@code servers} (empty: unpin);</li>
 *   <li>{@code DRAIN_SERVER}, {@code UNDRAIN_SERVER}: {@code server};</li>
 *   <li>{@code ROLLBACK_TABLE}: {@code tableVersion};</li>
 *   <li>{@code FREEZE}, {@code UNFREEZE}: none;</li>
 *   <li>{@code TENANT_RULE}: {@code tenant}, {@code servers} (empty: remove the rule), {@code maxShare}.</li>
 * </ul>
 *
 * @param schemaVersion {@link SchemaVersions#CURRENT}
 * @param commandId     the command's id, not blank (named in its acknowledgement)
 * @param kind          what to do
 * @param issuedAt      when it was issued, epoch milliseconds, {@code >= 0}
 * @param model         the model to pin
 * @param server        the server to drain or undrain
 * @param tenant        the tenant of a tenant rule
 * @param servers       the servers of a pin or a tenant rule (copied; ids not blank, distinct)
 * @param maxShare      a tenant's maximum share of the requests placed (over the last 10 s), in $(0, 1]$
 * @param tableVersion  the table version to roll back to, {@code >= 1}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"schemaVersion", "commandId", "kind", "issuedAt", "model", "server", "tenant", "servers",
        "maxShare", "tableVersion"})
public record ControllerCommand(
        @JsonProperty(required = true) int schemaVersion,
        @JsonProperty(required = true) String commandId,
        @JsonProperty(required = true) CommandKind kind,
        @JsonProperty(required = true) long issuedAt,
        String model,
        String server,
        String tenant,
        List<String> servers,
        Double maxShare,
        Long tableVersion) implements TopicRecord {

    public ControllerCommand {
        Fields.requireVersion(schemaVersion);
        Fields.requireText("commandId", commandId);
        Fields.requirePresent("kind", kind);
        Fields.requireNonNegative("issuedAt", issuedAt);
        boolean pin = kind == CommandKind.PIN_MODEL;
        boolean drain = kind == CommandKind.DRAIN_SERVER || kind == CommandKind.UNDRAIN_SERVER;
        boolean tenantRule = kind == CommandKind.TENANT_RULE;
        boolean rollback = kind == CommandKind.ROLLBACK_TABLE;
        field(kind, "model", model, pin);
        field(kind, "server", server, drain);
        field(kind, "tenant", tenant, tenantRule);
        field(kind, "servers", servers, pin || tenantRule);
        field(kind, "maxShare", maxShare, tenantRule);
        field(kind, "tableVersion", tableVersion, rollback);
        if (pin) {
            Fields.requireText("model", model);
        }
        if (drain) {
            Fields.requireText("server", server);
        }
        if (tenantRule) {
            Fields.requireText("tenant", tenant);
            if (!(maxShare > 0 && maxShare <= 1)) {
                throw new InvalidRecordException("field 'maxShare' (" + maxShare + ") must be in (0, 1]");
            }
        }
        if (servers != null) {
            servers = Fields.copyElements("servers", servers);
            requireDistinctServers(servers);
        }
        if (rollback && tableVersion < 1) {
            throw new InvalidRecordException("field 'tableVersion' (" + tableVersion + ") must be >= 1");
        }
    }

    private static void field(CommandKind kind, String name, Object value, boolean used) {
        if (used && value == null) {
            throw new InvalidRecordException("field '" + name + "' is missing (null); kind " + kind + " needs it");
        }
        if (!used && value != null) {
            throw new InvalidRecordException("field '" + name + "' (" + value + ") must be absent for kind " + kind);
        }
    }

    private static void requireDistinctServers(List<String> servers) {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < servers.size(); i++) {
            Fields.requireText("servers[" + i + "]", servers.get(i));
            if (!seen.add(servers.get(i))) {
                throw new InvalidRecordException("field 'servers[" + i + "]' ('" + servers.get(i) + "') is listed twice");
            }
        }
    }

    /** Keep {@code model}'s stages on {@code servers} (empty: unpin). */
    public static ControllerCommand pin(String commandId, long issuedAt, String model, List<String> servers) {
        return new ControllerCommand(SchemaVersions.CURRENT, commandId, CommandKind.PIN_MODEL, issuedAt, model, null,
                null, servers, null, null);
    }

    /** Drain ({@code drain}) or undrain {@code server}. */
    public static ControllerCommand drain(String commandId, long issuedAt, String server, boolean drain) {
        return new ControllerCommand(SchemaVersions.CURRENT, commandId,
                drain ? CommandKind.DRAIN_SERVER : CommandKind.UNDRAIN_SERVER, issuedAt, null, server, null, null, null,
                null);
    }

    /** Publish table {@code tableVersion} again. */
    public static ControllerCommand rollback(String commandId, long issuedAt, long tableVersion) {
        return new ControllerCommand(SchemaVersions.CURRENT, commandId, CommandKind.ROLLBACK_TABLE, issuedAt, null,
                null, null, null, null, tableVersion);
    }

    /** Freeze ({@code freeze}) or unfreeze re-optimisation. */
    public static ControllerCommand freeze(String commandId, long issuedAt, boolean freeze) {
        return new ControllerCommand(SchemaVersions.CURRENT, commandId,
                freeze ? CommandKind.FREEZE : CommandKind.UNFREEZE, issuedAt, null, null, null, null, null, null);
    }

    /** {@code tenant}'s own servers and maximum share (no servers: remove the rule). */
    public static ControllerCommand tenantRule(String commandId, long issuedAt, String tenant, List<String> servers,
            double maxShare) {
        return new ControllerCommand(SchemaVersions.CURRENT, commandId, CommandKind.TENANT_RULE, issuedAt, null, null,
                tenant, servers, maxShare, null);
    }

    /**
     * What the command is about, the topic's key: {@code pin:<model>}, {@code drain:<server>},
     * {@code tenant:<tenant>}, {@code freeze} or {@code rollback}. A later command of the same scope replaces it.
     */
    @JsonIgnore
    public String scope() {
        return switch (kind) {
            case PIN_MODEL -> "pin:" + model;
            case DRAIN_SERVER, UNDRAIN_SERVER -> "drain:" + server;
            case TENANT_RULE -> "tenant:" + tenant;
            case FREEZE, UNFREEZE -> "freeze";
            case ROLLBACK_TABLE -> "rollback";
        };
    }

    @Override
    public String key() {
        return scope();
    }
}
