package dev.nona.dashboard;

import dev.nona.check.Checks;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.LongFunction;

/**
 * The page's HTTP server (the JDK's {@code com.sun.net.httpserver}): {@code GET /} the page,
 * {@code GET /static/NAME} its script and style (classpath {@code dev/nona/dashboard/}),
 * {@code GET /webjars/uplot/...} uPlot from its WebJar, and {@code GET /api/state} a {@link DashboardSnapshot} as
 * JSON. Anything else is 404; methods other than GET and HEAD are 405.
 */
final class DashboardServer implements AutoCloseable {
    static final String UPLOT_VERSION = "1.6.30";
    private static final String PAGE_DIR = "dev/nona/dashboard/";
    private static final String WEBJARS_DIR = "META-INF/resources/webjars/";
    private static final Map<String, String> TYPES = Map.of("html", "text/html; charset=utf-8",
            "js", "text/javascript; charset=utf-8", "css", "text/css; charset=utf-8");

    private final HttpServer server;
    private final ExecutorService threads = Executors.newFixedThreadPool(2, r -> {
        Thread t = new Thread(r, "nona-dashboard-http");
        t.setDaemon(true);
        return t;
    });
    private final ObjectMapper json = new ObjectMapper();

    /**
     * @param host     the address to listen on (e.g. {@code localhost}, or {@code 0.0.0.0} for every interface)
     * @param port     the port, 0 for any free one
     * @param snapshot the state as of a wall-clock time in epoch milliseconds
     */
    DashboardServer(String host, int port, LongFunction<DashboardSnapshot> snapshot) throws IOException {
        Checks.portOrZero(port, "port");
        server = HttpServer.create(new InetSocketAddress(host, port), 16);
        server.createContext("/", ex -> serve(ex, () -> ex.getRequestURI().getPath().equals("/")
                ? resource(PAGE_DIR + "index.html") : null));
        server.createContext("/static/", ex -> serve(ex, () -> resource(PAGE_DIR
                + ex.getRequestURI().getPath().substring("/static/".length()))));
        server.createContext("/webjars/", ex -> serve(ex, () -> resource(WEBJARS_DIR
                + ex.getRequestURI().getPath().substring("/webjars/".length()))));
        server.createContext("/api/state", ex -> serve(ex, () -> new Body(
                json.writeValueAsBytes(snapshot.apply(System.currentTimeMillis())), "application/json")));
        server.setExecutor(threads);
        server.start();
    }

    /** The port it listens on. */
    int port() {
        return server.getAddress().getPort();
    }

    private record Body(byte[] bytes, String type) {}

    private interface BodySource {
        Body get() throws IOException;
    }

    private static void serve(HttpExchange ex, BodySource source) throws IOException {
        try (ex) {
            String method = ex.getRequestMethod();
            if (!method.equals("GET") && !method.equals("HEAD")) {
                reply(ex, 405, new Body(("method " + method + " not allowed\n").getBytes(StandardCharsets.UTF_8),
                        "text/plain"), method);
                return;
            }
            Body body = source.get();
            if (body == null) {
                reply(ex, 404, new Body(("no such page: " + ex.getRequestURI().getPath() + "\n")
                        .getBytes(StandardCharsets.UTF_8), "text/plain"), method);
                return;
            }
            reply(ex, 200, body, method);
        }
    }

    private static void reply(HttpExchange ex, int status, Body body, String method) throws IOException {
        ex.getResponseHeaders().set("Content-Type", body.type());
        ex.getResponseHeaders().set("Cache-Control", "no-store");
        if (method.equals("HEAD")) {
            ex.sendResponseHeaders(status, -1);
            return;
        }
        ex.sendResponseHeaders(status, body.bytes().length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(body.bytes());
        }
    }

    /** A classpath resource, or null when there is none (or the name tries to leave its folder). */
    private static Body resource(String name) throws IOException {
        if (name.contains("..") || name.endsWith("/")) {
            return null;
        }
        try (InputStream in = DashboardServer.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                return null;
            }
            String ext = name.substring(name.lastIndexOf('.') + 1);
            return new Body(in.readAllBytes(), TYPES.getOrDefault(ext, "application/octet-stream"));
        }
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
