package dev.nona.topics.serde;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;

/**
 * The one strict Jackson configuration every topic uses. Strict means: unknown fields, duplicate fields, trailing
 * tokens, {@code null} for a number or boolean, floats for integers, and numbers or booleans for strings (or the
 * reverse) are all errors, never silently coerced; and a parse stops at the first token over one of
 * {@link RecordLimits}' bounds (nesting depth, number, name and string lengths). Built once; {@link ObjectMapper} is
 * thread-safe after configuration.
 */
public final class TopicJson {
    private static final ObjectMapper MAPPER = build();

    private TopicJson() {
    }

    /** The shared, strictly configured mapper. Do not reconfigure it. */
    public static ObjectMapper mapper() {
        return MAPPER;
    }

    private static ObjectMapper build() {
        return build(JsonFactory.builder().streamReadConstraints(RecordLimits.constraints()).build());
    }

    /**
     * The strict configuration on {@code factory}, which must carry {@link RecordLimits#constraints()} (for tests:
     * a factory that counts the parsers it makes).
     */
    static ObjectMapper build(JsonFactory factory) {
        JsonMapper mapper = JsonMapper.builder(factory)
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .enable(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .build();
        refuse(mapper, LogicalType.Textual, CoercionInputShape.Integer, CoercionInputShape.Float, CoercionInputShape.Boolean);
        refuse(mapper, LogicalType.Boolean, CoercionInputShape.Integer, CoercionInputShape.Float, CoercionInputShape.String);
        refuse(mapper, LogicalType.Integer, CoercionInputShape.Float, CoercionInputShape.String, CoercionInputShape.Boolean);
        refuse(mapper, LogicalType.Float, CoercionInputShape.String, CoercionInputShape.Boolean);
        refuse(mapper, LogicalType.Enum, CoercionInputShape.Integer, CoercionInputShape.EmptyString);
        return mapper;
    }

    private static void refuse(JsonMapper mapper, LogicalType target, CoercionInputShape... shapes) {
        for (CoercionInputShape shape : shapes) {
            mapper.coercionConfigFor(target).setCoercion(shape, CoercionAction.Fail);
        }
    }
}
