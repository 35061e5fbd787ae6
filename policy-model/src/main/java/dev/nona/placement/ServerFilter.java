package dev.nona.placement;

/**
 * Which servers (by {@link LiveServers} index) a request may use: the operator's rules for one request
 * ({@link ServerRules}). {@link LiveServers#pick} and {@link LiveServers#pickOther} honour the filter set by
 * {@link LiveServers#restrict} for every part of the request.
 */
@FunctionalInterface
public interface ServerFilter {
    /** Whether the request may use server {@code server}. */
    boolean allows(int server);
}
