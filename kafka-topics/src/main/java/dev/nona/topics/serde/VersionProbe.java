package dev.nona.topics.serde;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.nona.topics.record.SchemaVersions;
import java.io.IOException;

/**
 * On the failure path only: finds out whether a rejected record's real problem is its {@code schemaVersion}
 * (missing, not an integer, not supported), which then becomes the reason whatever else is wrong with it. Scans the
 * top level of the object with a streaming parser, skipping nested values, without building a tree.
 */
final class VersionProbe {
    private VersionProbe() {
    }

    /** @return the version problem, or {@code fieldReason} when the version is fine or the input unreadable */
    static String reason(byte[] value, String fieldReason) {
        try (JsonParser parser = TopicJson.mapper().createParser(value)) {
            JsonToken first = parser.nextToken();
            if (first == null) {
                return "record is empty (no JSON value)";
            }
            if (first != JsonToken.START_OBJECT) {
                return "record must be a JSON object, not a JSON " + kind(first);
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                JsonToken token = parser.nextToken();
                if ("schemaVersion".equals(name)) {
                    return check(parser, token, fieldReason);
                }
                parser.skipChildren();
            }
            return "field 'schemaVersion' is missing";
        } catch (IOException | RuntimeException e) {
            return fieldReason;
        }
    }

    private static String check(JsonParser parser, JsonToken token, String fieldReason) throws IOException {
        if (token == JsonToken.VALUE_NULL) {
            return "field 'schemaVersion' is missing";
        }
        if (token != JsonToken.VALUE_NUMBER_INT || parser.getNumberType() != JsonParser.NumberType.INT) {
            String shown = token == JsonToken.VALUE_STRING ? '"' + parser.getText() + '"' : parser.getText();
            return Rejections.clip("field 'schemaVersion' (" + shown + ") must be an integer");
        }
        int version = parser.getIntValue();
        if (version != SchemaVersions.CURRENT) {
            return "field 'schemaVersion' (" + version + ") is not supported (supported: " + SchemaVersions.CURRENT + ")";
        }
        return fieldReason;
    }

    private static String kind(JsonToken token) {
        return switch (token) {
            case START_ARRAY -> "ARRAY";
            case VALUE_STRING -> "STRING";
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "NUMBER";
            case VALUE_TRUE, VALUE_FALSE -> "BOOLEAN";
            case VALUE_NULL -> "NULL";
            default -> token.name();
        };
    }
}
