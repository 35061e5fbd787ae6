package dev.nona.controller.loop;

import org.apache.flink.api.common.state.ValueState;

/** A {@link ValueState} in a field, for plain tests of the control loop's parts. */
final class TestingValueState<T> implements ValueState<T> {
    private T value;

    @Override
    public T value() {
        return value;
    }

    @Override
    public void update(T next) {
        value = next;
    }

    @Override
    public void clear() {
        value = null;
    }
}
