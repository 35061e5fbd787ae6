package dev.nona.twin;

import dev.nona.workload.ColdStartCost;
import dev.nona.workload.ServerClass;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The executor twin's cluster on the command line: {@code --server-class NAME:COUNT:OPS_PER_SECOND:MEMORY_BYTES}
 * (repeatable; one policy-model {@link ServerClass} each, servers numbered class by class) and {@code --cold-start
 * FIXED_SECONDS:LOAD_BYTES_PER_SECOND} (a {@link ColdStartCost}). Every error names the option, the value and the
 * field: {@code --server-class ('small:0:1e11:5e8'): COUNT (0) must be a whole number >= 1}. Numbers are plain
 * decimals ({@code 1e11}, {@code 536870912}); {@code NaN}, {@code Infinity} and Java's suffixes ({@code 1f}) are
 * refused. Stateless.
 */
public final class ServerClassSpecs {
    static final String SERVER_CLASS = "--server-class";
    static final String COLD_START = "--cold-start";

    private ServerClassSpecs() {
    }

    /**
     * The classes of repeated {@code --server-class} values, in order.
     *
     * @throws IllegalArgumentException naming the option, the value and the field when a value is malformed, a
     *                                  name repeats, a count is not a whole number $\ge 1$, or a speed or memory
     *                                  is not a finite number $> 0$
     */
    public static List<ServerClass> parseClasses(List<String> values) {
        List<ServerClass> out = new ArrayList<>(values.size());
        Set<String> names = new HashSet<>();
        for (String value : values) {
            String[] f = value.split(":", -1);
            if (f.length != 4) {
                throw new IllegalArgumentException(SERVER_CLASS + " ('" + value
                        + "') must be NAME:COUNT:OPS_PER_SECOND:MEMORY_BYTES");
            }
            String name = f[0].strip();
            if (name.isEmpty()) {
                throw new IllegalArgumentException(SERVER_CLASS + " ('" + value + "'): NAME must not be blank");
            }
            if (!names.add(name)) {
                throw new IllegalArgumentException(SERVER_CLASS + " ('" + value + "'): class '" + name
                        + "' is given twice");
            }
            int count = count(value, f[1].strip());
            double ops = positive(SERVER_CLASS, value, "OPS_PER_SECOND", f[2].strip());
            double memory = positive(SERVER_CLASS, value, "MEMORY_BYTES", f[3].strip());
            out.add(new ServerClass(name, count, ops, memory));
        }
        return out;
    }

    /**
     * The cost of {@code --cold-start FIXED_SECONDS:LOAD_BYTES_PER_SECOND}: $F$ finite $\ge 0$, $B$ finite $> 0$.
     *
     * @throws IllegalArgumentException naming the option, the value and the field
     */
    public static ColdStartCost parseColdStart(String value) {
        String[] f = value.split(":", -1);
        if (f.length != 2) {
            throw new IllegalArgumentException(COLD_START + " ('" + value + "') must be FIXED_SECONDS:LOAD_BYTES_PER_SECOND");
        }
        double fixed = number(COLD_START, value, "FIXED_SECONDS", f[0].strip(), "a finite number >= 0");
        if (!(fixed >= 0)) {
            throw new IllegalArgumentException(COLD_START + " ('" + value + "'): FIXED_SECONDS (" + f[0].strip()
                    + ") must be a finite number >= 0");
        }
        double rate = positive(COLD_START, value, "LOAD_BYTES_PER_SECOND", f[1].strip());
        return new ColdStartCost(fixed, rate);
    }

    private static int count(String value, String text) {
        try {
            int n = Integer.parseInt(text);
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(SERVER_CLASS + " ('" + value + "'): COUNT (" + text
                + ") must be a whole number >= 1");
    }

    private static double positive(String option, String value, String field, String text) {
        double x = number(option, value, field, text, "a finite number > 0");
        if (!(x > 0)) {
            throw new IllegalArgumentException(option + " ('" + value + "'): " + field + " (" + text
                    + ") must be a finite number > 0");
        }
        return x;
    }

    /** A plain decimal (BigDecimal's syntax: no NaN, no Infinity, no type suffix) that is finite as a double. */
    private static double number(String option, String value, String field, String text, String rule) {
        double x;
        try {
            x = new BigDecimal(text).doubleValue();
        } catch (NumberFormatException e) {
            x = Double.NaN;
        }
        if (Double.isNaN(x) || Double.isInfinite(x)) {
            throw new IllegalArgumentException(option + " ('" + value + "'): " + field + " (" + text + ") must be "
                    + rule);
        }
        return x;
    }
}
