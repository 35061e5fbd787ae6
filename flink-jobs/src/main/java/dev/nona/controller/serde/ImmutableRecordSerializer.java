package dev.nona.controller.serde;

import java.io.IOException;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataInputView;

/**
 * Base of our serializers for immutable, variable-length records: copies return their argument, there is no
 * instance to reuse, and deserialising "into" a reused value just deserialises. Subclasses give the format.
 */
public abstract class ImmutableRecordSerializer<T> extends TypeSerializer<T> {
    private static final long serialVersionUID = 1L;

    @Override
    public final boolean isImmutableType() {
        return true;
    }

    @Override
    public final T createInstance() {
        return null;
    }

    @Override
    public final T copy(T from) {
        return from;
    }

    @Override
    public final T copy(T from, T reuse) {
        return from;
    }

    @Override
    public final int getLength() {
        return -1;
    }

    @Override
    public final T deserialize(T reuse, DataInputView source) throws IOException {
        return deserialize(source);
    }
}
