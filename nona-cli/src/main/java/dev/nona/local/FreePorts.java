package dev.nona.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Free TCP ports on the loopback interface, chosen by the OS. */
public final class FreePorts {

    private FreePorts() {}

    /** A port that was free a moment ago (another process may still take it before it is bound). */
    public static int next() {
        return distinct(1)[0];
    }

    /**
     * {@code count} ports that were free a moment ago, all different from each other and from {@code taken}.
     *
     * <p>Every socket stays open until all are chosen: a port released by one call to {@link #next()} may be
     * handed out again by the next, so two ports a process needs at once (a broker's and its controller's
     * listener) must come from one call.
     */
    public static int[] distinct(int count, int... taken) {
        if (count < 0) {
            throw new IllegalArgumentException("count must be >= 0, got " + count);
        }
        List<ServerSocket> open = new ArrayList<>();
        int[] ports = new int[count];
        try {
            int found = 0;
            while (found < count) {
                ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                open.add(socket);
                int port = socket.getLocalPort();
                if (Arrays.stream(taken).noneMatch(t -> t == port)) {
                    ports[found++] = port;
                }
            }
            return ports;
        } catch (IOException e) {
            throw new UncheckedIOException("no free loopback port", e);
        } finally {
            for (ServerSocket socket : open) {
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // closing a listening socket that never accepted cannot lose anything
                }
            }
        }
    }
}
