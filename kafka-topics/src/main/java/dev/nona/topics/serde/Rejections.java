package dev.nona.topics.serde;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import dev.nona.topics.record.InvalidRecordException;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Turns a parse failure into a one-line reason that names the field (as a JSON path) and the value. */
final class Rejections {
    /** Reasons longer than this are cut: a reason must not carry a megabyte of input back out. */
    static final int MAX_REASON_CHARS = 500;

    private Rejections() {
    }

    private static final Pattern MISSING = Pattern.compile("^Missing required creator property '([^']*)'.*");
    /** Jackson's advice on which feature to flip, or where the source was: not for the reader of a dead letter. */
    private static final Pattern HINT = Pattern.compile(
            "\\s*(\\((but|set|enable|disable) [^)]*\\)|: (enable|disable) [^ ]+ to allow|\\(start marker at \\[[^]]*\\][^)]*\\))");

    /** Where Jackson names the {@code StreamReadConstraints} getter of a bound: not for the reader of a dead letter. */
    private static final Pattern BOUND_SOURCE = Pattern.compile(",? from `StreamReadConstraints\\.[^`]*`");

    static String of(JsonProcessingException e) {
        StreamConstraintsException bound = boundBroken(e);
        if (bound != null) {
            String location = bound.getLocation() == null ? "" : " at column " + bound.getLocation().getColumnNr();
            return clip("record over a parse limit" + location + ": "
                    + BOUND_SOURCE.matcher(oneLine(bound.getOriginalMessage())).replaceAll(""));
        }
        if (e instanceof ValueInstantiationException vie && vie.getCause() instanceof InvalidRecordException invalid) {
            return clip(nest(path(vie.getPath()), invalid.getMessage()));
        }
        if (e instanceof UnrecognizedPropertyException unknown) {
            return clip("field '" + path(unknown.getPath()) + "' is not in the schema (unknown field)");
        }
        if (e instanceof JsonMappingException mapping) {
            return clip(fieldError(path(mapping.getPath()), cleaned(mapping.getOriginalMessage())));
        }
        String location = e.getLocation() == null ? "" : " at column " + e.getLocation().getColumnNr();
        return clip("malformed JSON" + location + ": " + cleaned(e.getOriginalMessage()));
    }

    /** True when the parse stopped at a bound of {@link RecordLimits}, a reason that wins over the version's. */
    static boolean overBound(JsonProcessingException e) {
        return boundBroken(e) != null;
    }

    private static StreamConstraintsException boundBroken(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof StreamConstraintsException bound) {
                return bound;
            }
        }
        return null;
    }

    private static String fieldError(String path, String message) {
        Matcher missing = MISSING.matcher(message);
        if (missing.matches()) {
            String name = missing.group(1);
            boolean pathNamesIt = path.equals(name) || path.endsWith("." + name);
            String field = pathNamesIt ? path : path.isEmpty() ? name : path + "." + name;
            return "field '" + field + "' is missing";
        }
        return path.isEmpty() ? message : "field '" + path + "': " + message;
    }

    /** A record's own message names its field relative to itself; put the path to the record in front. */
    private static String nest(String path, String message) {
        if (path.isEmpty()) {
            return message;
        }
        return message.startsWith("field '") ? "field '" + path + "." + message.substring(7) : "in '" + path + "': " + message;
    }

    static String cleaned(String message) {
        return HINT.matcher(oneLine(message)).replaceAll("");
    }

    static String path(List<JsonMappingException.Reference> refs) {
        StringBuilder sb = new StringBuilder();
        for (JsonMappingException.Reference ref : refs) {
            if (ref.getFieldName() != null) {
                if (sb.length() > 0) {
                    sb.append('.');
                }
                sb.append(ref.getFieldName());
            } else if (ref.getIndex() >= 0) {
                sb.append('[').append(ref.getIndex()).append(']');
            }
        }
        return sb.toString();
    }

    static String oneLine(String message) {
        return message == null ? "unknown error" : message.replace('\n', ' ').replace('\r', ' ');
    }

    static String clip(String reason) {
        return reason.length() <= MAX_REASON_CHARS ? reason : reason.substring(0, MAX_REASON_CHARS - 3) + "...";
    }
}
