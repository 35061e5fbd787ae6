package dev.nona.bench;

import dev.nona.controller.placement.BroadcastUpdate;
import dev.nona.controller.placement.BroadcastUpdateTypeInfo;
import dev.nona.controller.source.RequestParser;
import dev.nona.controller.source.RequestRecord;
import dev.nona.topics.record.CachedModel;
import dev.nona.topics.record.ServerTelemetry;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.lang.management.ManagementFactory;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * The placement benchmark's input with live telemetry: generator index $i$ becomes either a request (the bytes a
 * producer would write, parsed by the controller's parser) or a report of one server (to {@link #TELEMETRY}, for
 * the broadcast side). Event time runs at {@code requestsPerSecond} requests per second, and within each second of
 * event time every one of the $N$ servers reports once, spread evenly between the requests: each second is a block
 * of $R + N$ indices, index $j$ of a block being a report iff $\lfloor (j+1) N / (R+N) \rfloor >
 * \lfloor j N / (R+N) \rfloor$ (report of server $\lfloor j N / (R+N) \rfloor$). Requests beyond the count asked
 * for, and the reports after the last of them, are not emitted. Deterministic: index $i$ gives the same record in
 * every run.
 */
final class InterleavedTelemetry extends ProcessFunction<Long, RequestRecord> {
    private static final long serialVersionUID = 1L;
    static final OutputTag<BroadcastUpdate> TELEMETRY =
            new OutputTag<>("telemetry", new BroadcastUpdateTypeInfo());

    private final String[] models;
    private final long records;
    private final long requestsPerSecond;
    private final int servers;
    private final RequestParser parser = new RequestParser("inference-requests");
    /** CPU time of the input's thread (the generator, this function, the parser), from open to close. */
    private transient LongCounter cpuNanos;
    private transient long cpuAtOpen;

    InterleavedTelemetry(List<String> models, long records, long requestsPerSecond, int servers) {
        if (requestsPerSecond < 1) {
            throw new IllegalArgumentException("request rate (" + requestsPerSecond + " per second of event time) must be >= 1");
        }
        this.models = models.toArray(String[]::new);
        this.records = records;
        this.requestsPerSecond = requestsPerSecond;
        this.servers = servers;
    }

    /** Generator indices needed for {@code records} requests: whole seconds of event time. */
    static long indices(long records, long requestsPerSecond, int servers) {
        long seconds = (records + requestsPerSecond - 1) / requestsPerSecond;
        return seconds * (requestsPerSecond + servers);
    }

    /** Reports among the first {@link #indices} indices that are emitted (those before the last request). */
    static long reports(long records, long requestsPerSecond, int servers) {
        long count = 0;
        long block = requestsPerSecond + servers;
        long seconds = (records + requestsPerSecond - 1) / requestsPerSecond;
        for (long b = 0; b < seconds; b++) {
            long left = records - b * requestsPerSecond; // requests still to come at the block's start
            for (long k = 0; k < servers; k++) {
                // report k sits at the least j with floor((j+1)N/B) > k, i.e. j = ceil((k+1)B/N) - 1
                long j = ((k + 1) * block + servers - 1) / servers - 1;
                long requestsBefore = j - k;
                if (requestsBefore < left) {
                    count++;
                }
            }
        }
        return count;
    }

    @Override
    public void open(OpenContext openContext) {
        cpuNanos = new LongCounter();
        getRuntimeContext().addAccumulator("inputCpuNanos", cpuNanos);
        cpuAtOpen = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
    }

    @Override
    public void close() {
        cpuNanos.add(ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpuAtOpen);
    }

    @Override
    public void processElement(Long index, Context ctx, Collector<RequestRecord> out) {
        long block = requestsPerSecond + servers;
        long b = index / block;
        long j = index % block;
        long reportsBefore = j * servers / block;
        long requestsBefore = j - reportsBefore;
        boolean report = (j + 1) * servers / block > reportsBefore;
        if (requestsBefore + b * requestsPerSecond >= records) {
            return; // after the last request
        }
        if (report) {
            int k = (int) reportsBefore;
            long eventTime = GeneratedRequests.BASE + b * 1000 + j * 1000 / block;
            ctx.output(TELEMETRY, BroadcastUpdate.of(ServerTelemetry.of("s" + k, true, 1.0e13, k % 4,
                    List.of(new CachedModel(models[k % models.length], 1 << 30)), 1.0e10, eventTime)));
            return;
        }
        long i = b * requestsPerSecond + requestsBefore;
        long eventTime = GeneratedRequests.BASE + i * 1000 / requestsPerSecond;
        String json = "{\"schemaVersion\":1,\"id\":\"r-" + i + "\",\"model\":\"" + models[(int) (i % models.length)]
                + "\",\"tenant\":\"t" + (i & 15) + "\",\"eventTime\":" + eventTime + ",\"payloadBytes\":1024}";
        out.collect(parser.parse(json.getBytes(StandardCharsets.UTF_8), -1, -1));
    }
}
