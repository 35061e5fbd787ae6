package dev.nona.topics.serde;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import dev.nona.topics.record.InvalidRecordException;
import java.util.List;

/** Turns a parse failure into a one-line reason that names the field (as a JSON path) and the value. */
final class Rejections {
    /** Reasons longer than this are cut: a reason must not carry a megabyte of input back out. */
    static final int MAX_REASON_CHARS = 500;

    private Rejections() {
    }

    static String of(JsonProcessingException e) {
        if (e instanceof ValueInstantiationException vie && vie.getCause() instanceof InvalidRecordException invalid) {
            return clip(prefix(vie.getPath()) + invalid.getMessage());
        }
        if (e instanceof UnrecognizedPropertyException unknown) {
            return clip("field '" + path(unknown.getPath()) + "' is not in the schema (unknown field)");
        }
        if (e instanceof JsonMappingException mapping) {
            String path = path(mapping.getPath());
            String where = path.isEmpty() ? "" : "field '" + path + "': ";
            return clip(where + oneLine(mapping.getOriginalMessage()));
        }
        String location = e.getLocation() == null ? "" : " at column " + e.getLocation().getColumnNr();
        return clip("malformed JSON" + location + ": " + oneLine(e.getOriginalMessage()));
    }

    private static String prefix(List<JsonMappingException.Reference> path) {
        String p = path(path);
        return p.isEmpty() ? "" : "in '" + p + "': ";
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
