package dev.nona.controller.serde;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.nona.topics.serde.TopicJson;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A reused, growable byte buffer that writes JSON tokens exactly as the topic serde's Jackson writes them: a
 * {@code long} eight digits at a time; a {@code double} as {@link Double#toString(double)} (a whole number of
 * microseconds in $[0, 100)$ digit by digit without allocating, anything else cached per value); a string quoted
 * directly when it is plain printable ASCII, anything else through Jackson (so escaping is Jackson's).
 *
 * <p>Not thread safe: one per writer. {@link #reset} starts the next document in the same buffer.
 */
final class JsonBytes {
    private static final int DOUBLE_SLOTS = 64;
    /** Doubles below this that are whole microseconds are written by {@link #micros}. */
    private static final double MICROS_LIMIT = 100;
    private static final long EIGHT_DIGITS = 100_000_000L;

    private byte[] buffer = new byte[256];
    private int size;
    private final long[] doubleBits = new long[DOUBLE_SLOTS];
    private final byte[][] doubleText = new byte[DOUBLE_SLOTS][];

    /** Empties the buffer (its capacity is kept). */
    void reset() {
        size = 0;
    }

    /** Bytes written since {@link #reset}. */
    int size() {
        return size;
    }

    /** Copies {@code length} written bytes from {@code from} into {@code dest} at {@code at}. */
    void copyTo(int from, int length, byte[] dest, int at) {
        System.arraycopy(buffer, from, dest, at, length);
    }

    void raw(byte[] b) {
        raw(b, b.length);
    }

    /** The first {@code length} bytes of {@code b}. */
    void raw(byte[] b, int length) {
        ensure(length);
        System.arraycopy(b, 0, buffer, size, length);
        size += length;
    }

    /** One ASCII character: a comma, a bracket or a brace. */
    void raw(char c) {
        ensure(1);
        buffer[size++] = (byte) c;
    }

    /** A quoted JSON string, not cached: plain printable ASCII directly, anything else through Jackson. */
    void string(String s) {
        int n = s.length();
        ensure(n + 2);
        int at = size;
        buffer[at++] = '"';
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (!plain(c)) {
                raw(jackson(s));
                return;
            }
            buffer[at++] = (byte) c;
        }
        buffer[at++] = '"';
        size = at;
    }

    /**
     * A double as Jackson writes it ({@link Double#toString(double)}). A whole number of microseconds in
     * $[0, 100)$ (the explanation's rounded figures, which differ per request and would miss the cache) is written
     * digit by digit, allocation-free: the shortest decimal of $k/10^6$, which is {@code Double.toString}'s text (JDK 19+
     * prints the shortest; on JDK 17 checked equal for every $k < 10^8$, and {@code DecisionWriterTest} checks a
     * sample); anything else goes through {@link #doubleBytes}.
     */
    void decimal(double v) {
        if (v >= 0 && v < MICROS_LIMIT) {
            long k = Math.round(v * 1e6);
            if ((double) k / 1e6 == v) {
                micros((int) k);
                return;
            }
        }
        raw(doubleBytes(v));
    }

    /** A long as Jackson writes it; eight digits at a time in {@code int} arithmetic (cheaper than long division). */
    void number(long v) {
        ensure(20);
        if (v < 0) {
            if (v == Long.MIN_VALUE) {
                raw(ascii(Long.toString(v)));
                return;
            }
            buffer[size++] = '-';
            v = -v;
        }
        if (v >= EIGHT_DIGITS) {
            long high = v / EIGHT_DIGITS;
            number(high);
            int low = (int) (v - high * EIGHT_DIGITS);
            for (int i = size + 7; i >= size; i--) {
                buffer[i] = (byte) ('0' + low % 10);
                low /= 10;
            }
            size += 8;
            return;
        }
        int x = (int) v;
        int digits = 1;
        for (int p = 10; digits < 8 && x >= p; p *= 10) {
            digits++;
        }
        int end = size + digits;
        for (int i = end - 1; i >= size; i--) {
            buffer[i] = (byte) ('0' + x % 10);
            x /= 10;
        }
        size = end;
    }

    /** {@code Double.toString(k / 1e6)} for {@code 0 <= k < 10^8}: {@code 0.0}, {@code 12.0345}, {@code 3.64E-4}. */
    private void micros(int k) {
        ensure(16);
        if (k >= 1000 || k == 0) {
            number(k / 1_000_000);
            buffer[size++] = '.';
            int fraction = k % 1_000_000;
            if (fraction == 0) {
                buffer[size++] = '0';
                return;
            }
            int digits = 6;
            while (fraction % 10 == 0) {
                fraction /= 10;
                digits--;
            }
            digitsOf(fraction, digits);
            return;
        }
        int length = k >= 100 ? 3 : k >= 10 ? 2 : 1;
        int exponent = length - 7;
        while (k % 10 == 0) {
            k /= 10;
            length--;
        }
        int scale = length == 3 ? 100 : length == 2 ? 10 : 1;
        buffer[size++] = (byte) ('0' + k / scale);
        buffer[size++] = '.';
        if (length == 1) {
            buffer[size++] = '0';
        } else {
            digitsOf(k % scale, length - 1);
        }
        buffer[size++] = 'E';
        buffer[size++] = '-';
        buffer[size++] = (byte) ('0' - exponent);
    }

    /** {@code value} as exactly {@code digits} decimal digits (leading zeros kept). */
    private void digitsOf(int value, int digits) {
        for (int i = size + digits - 1; i >= size; i--) {
            buffer[i] = (byte) ('0' + value % 10);
            value /= 10;
        }
        size += digits;
    }

    /**
     * Jackson writes a double with {@link Double#toString(double)}; a table's figures repeat, so the text is cached
     * per value (a small direct-mapped cache: one slot per hash of the bits; per-request figures mostly miss).
     */
    private byte[] doubleBytes(double v) {
        long bits = Double.doubleToRawLongBits(v);
        int slot = (int) ((bits ^ (bits >>> 29) ^ (bits >>> 43)) & (DOUBLE_SLOTS - 1));
        byte[] text = doubleText[slot];
        if (text == null || doubleBits[slot] != bits) {
            text = ascii(Double.toString(v));
            doubleBits[slot] = bits;
            doubleText[slot] = text;
        }
        return text;
    }

    private void ensure(int more) {
        if (size + more > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, size + more));
        }
    }

    /** {@code s} as a quoted JSON string, as Jackson writes it. */
    static byte[] quoted(String s) {
        byte[] b = plainQuoted(s, 0);
        return b != null ? b : jackson(s);
    }

    /**
     * {@code "<s>"} followed by {@code room} zero bytes when {@code s} is plain printable ASCII (nothing to escape),
     * else null.
     */
    static byte[] plainQuoted(String s, int room) {
        int n = s.length();
        byte[] b = new byte[n + 2 + room];
        b[0] = '"';
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (!plain(c)) {
                return null;
            }
            b[i + 1] = (byte) c;
        }
        b[n + 1] = '"';
        return b;
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** Printable ASCII that JSON does not escape. */
    private static boolean plain(char c) {
        return c >= 0x20 && c < 0x7F && c != '"' && c != '\\';
    }

    private static byte[] jackson(String s) {
        try {
            return TopicJson.mapper().writeValueAsBytes(s);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("BUG: cannot write a string as JSON", e);
        }
    }
}
