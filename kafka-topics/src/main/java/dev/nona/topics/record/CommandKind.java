package dev.nona.topics.record;

/**
 * What a {@link ControllerCommand} asks the controller to do. State-setting kinds (pin, drain, tenant rule, freeze)
 * hold until a later command of the same scope replaces them; {@link #ROLLBACK_TABLE} is done once.
 */
public enum CommandKind {
    /** Keep a model's stages on a set of servers ({@code model}, {@code servers}; no servers: unpin). */
    PIN_MODEL,
    /** A server gets no new stages ({@code server}); its running stages finish. */
    DRAIN_SERVER,
    /** Ends a drain ({@code server}). */
    UNDRAIN_SERVER,
    /** Publish the table of version {@code tableVersion} again, as a new version. */
    ROLLBACK_TABLE,
    /** Stop re-optimising: drift is still detected and reported, but not solved until {@link #UNFREEZE}. */
    FREEZE,
    /** Resume re-optimising; a drift recorded while frozen is solved at the next window end. */
    UNFREEZE,
    /**
     * A tenant's own servers and its maximum share ({@code tenant}, {@code servers}, {@code maxShare}; no servers:
     * the rule is removed).
     */
    TENANT_RULE
}
