package dev.nona.controller.loop;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.state.MapState;

/** A {@link MapState} in a map, for plain tests of the control loop's parts; its views are copies. */
final class TestingMapState<K, V> implements MapState<K, V> {
    final Map<K, V> map = new LinkedHashMap<>();

    @Override
    public V get(K key) {
        return map.get(key);
    }

    @Override
    public void put(K key, V value) {
        map.put(key, value);
    }

    @Override
    public void putAll(Map<K, V> entries) {
        map.putAll(entries);
    }

    @Override
    public void remove(K key) {
        map.remove(key);
    }

    @Override
    public boolean contains(K key) {
        return map.containsKey(key);
    }

    @Override
    public Iterable<Map.Entry<K, V>> entries() {
        return List.copyOf(map.entrySet());
    }

    @Override
    public Iterable<K> keys() {
        return new ArrayList<>(map.keySet());
    }

    @Override
    public Iterable<V> values() {
        return new ArrayList<>(map.values());
    }

    @Override
    public Iterator<Map.Entry<K, V>> iterator() {
        return entries().iterator();
    }

    @Override
    public boolean isEmpty() {
        return map.isEmpty();
    }

    @Override
    public void clear() {
        map.clear();
    }
}
