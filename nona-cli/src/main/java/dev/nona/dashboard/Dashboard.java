package dev.nona.dashboard;

import java.io.IOException;
import java.time.Duration;
import java.util.Properties;

/**
 * The live page, running: a {@link TopicFeed} reading the controller's topics into a {@link DashboardState} and a
 * {@link DashboardServer} serving it. {@link #close()} stops both.
 */
public final class Dashboard implements AutoCloseable {
    private final DashboardState state;
    private final TopicFeed feed;
    private final DashboardServer server;
    private final String host;

    private Dashboard(DashboardState state, TopicFeed feed, DashboardServer server, String host) {
        this.state = state;
        this.feed = feed;
        this.server = server;
        this.host = host;
    }

    /**
     * Starts reading {@code bootstrap}'s topics and serving the page.
     *
     * @param bootstrap       {@code HOST:PORT[,...]} of the Kafka cluster
     * @param host            the address to listen on ({@code localhost}, or {@code 0.0.0.0})
     * @param port            the HTTP port, 0 for any free one
     * @param livenessTimeout a server not heard from for longer is shown silent (the controller's
     *                        {@code cluster.liveness-timeout})
     */
    public static Dashboard start(String bootstrap, String host, int port, Duration livenessTimeout)
            throws IOException {
        return start(bootstrap, new Properties(), host, port, livenessTimeout);
    }

    /**
     * Starts reading {@code bootstrap}'s topics, with further Kafka client settings (a secured cluster's
     * {@code security.protocol}, {@code sasl.*}, {@code ssl.*}), and serving the page.
     */
    public static Dashboard start(String bootstrap, Properties client, String host, int port,
            Duration livenessTimeout) throws IOException {
        DashboardState state = new DashboardState(bootstrap, livenessTimeout);
        DashboardServer server = new DashboardServer(host, port, state::snapshot);
        try {
            return new Dashboard(state, new TopicFeed(bootstrap, client, state).start(), server, host);
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
    }

    /** The page's address. */
    public String url() {
        String shown = host.equals("0.0.0.0") ? "localhost" : host;
        return "http://" + shown + ":" + server.port() + "/";
    }

    /** The state as the page would get it now. */
    public DashboardSnapshot snapshot() {
        return state.snapshot(System.currentTimeMillis());
    }

    /** The reader's failure, or null while it reads. */
    public Throwable failure() {
        return feed.failure();
    }

    @Override
    public void close() throws InterruptedException {
        server.close();
        feed.close();
    }
}
