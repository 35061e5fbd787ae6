package dev.nona.controller.serde;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Strings as our hand-written serializers write them: a length, then UTF-8. Decoding reuses one byte buffer and, for
 * {@link #recent}, returns the same {@code String} for a value it decoded recently (model names repeat, so look-ups
 * downstream hit a cached hash). Not thread safe: one per serializer instance.
 */
public final class Utf8Strings {
    private static final int RECENT = 16;

    private final String what;
    private byte[] buffer = new byte[64];
    private final byte[][] recentBytes = new byte[RECENT][];
    private final String[] recent = new String[RECENT];
    private int next;

    /** @param what the record kind, for the message of a corrupt length */
    public Utf8Strings(String what) {
        this.what = what;
    }

    public static void write(String s, DataOutputView out) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    public String read(DataInputView in) throws IOException {
        int n = fill(in);
        return new String(buffer, 0, n, StandardCharsets.UTF_8);
    }

    /** As {@link #read}, the same instance as a recent one with the same bytes. */
    public String recent(DataInputView in) throws IOException {
        int n = fill(in);
        for (int i = 0; i < RECENT; i++) {
            byte[] known = recentBytes[i];
            if (known != null && Arrays.equals(known, 0, known.length, buffer, 0, n)) {
                return recent[i];
            }
        }
        String s = new String(buffer, 0, n, StandardCharsets.UTF_8);
        recentBytes[next] = Arrays.copyOf(buffer, n);
        recent[next] = s;
        next = (next + 1) % RECENT;
        return s;
    }

    private int fill(DataInputView in) throws IOException {
        int n = in.readInt();
        if (n < 0) {
            throw new IOException("corrupt " + what + ": string length " + n);
        }
        if (buffer.length < n) {
            buffer = new byte[n];
        }
        in.readFully(buffer, 0, n);
        return n;
    }
}
