package dev.nona.it;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * What a read_committed reader saw of {@code KafkaRelayJob}'s output ({@code v<i>#<n>}): inputs lost, inputs
 * seen more than once, and keys whose sequence numbers are not exactly 1..count in input order.
 */
record RelayOutputCheck(int records, int lost, int duplicates, List<String> brokenSequences) {

    static RelayOutputCheck of(List<ConsumerRecord<String, String>> output, int expectedInputs) {
        Set<Integer> seen = new HashSet<>();
        int duplicates = 0;
        Map<String, List<long[]>> perKey = new HashMap<>();
        for (ConsumerRecord<String, String> r : output) {
            String v = r.value();
            int hash = v.lastIndexOf('#');
            int index = Integer.parseInt(v.substring(1, hash));
            long seq = Long.parseLong(v.substring(hash + 1));
            if (!seen.add(index)) {
                duplicates++;
            }
            perKey.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(new long[] {index, seq});
        }
        int lost = 0;
        for (int i = 0; i < expectedInputs; i++) {
            if (!seen.contains(i)) {
                lost++;
            }
        }
        List<String> broken = new ArrayList<>();
        perKey.forEach((key, pairs) -> {
            pairs.sort((a, b) -> Long.compare(a[0], b[0]));
            for (int j = 0; j < pairs.size(); j++) {
                if (pairs.get(j)[1] != j + 1) {
                    broken.add(key + " at input v" + pairs.get(j)[0] + " has #" + pairs.get(j)[1] + ", expected #" + (j + 1));
                    break;
                }
            }
        });
        return new RelayOutputCheck(output.size(), lost, duplicates, broken);
    }
}
