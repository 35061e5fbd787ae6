package dev.nona.controller.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.topics.record.DeadLetter;
import dev.nona.topics.record.InferenceRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.eventtime.BoundedOutOfOrdernessWatermarks;
import org.apache.flink.api.common.eventtime.TimestampAssigner;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.junit.jupiter.api.Test;

final class RequestTimestampsTest {
    private static final long NOW = 1_700_000_000_000L;
    private static final long HOUR = 3_600_000L;

    private final RequestTimestamps timestamps = new RequestTimestamps(2_000);

    @Test
    void eventTimeAheadOfItsRecord_isBoundedByRecordTimestampPlusOutOfOrderness() {
        assertThat(timestamps.extractTimestamp(request("skewed", NOW + HOUR), NOW)).isEqualTo(NOW + 2_000);
    }

    @Test
    void eventTimeWithinTheBound_orBehind_isKept() {
        assertThat(timestamps.extractTimestamp(request("a", NOW + 1_999), NOW)).isEqualTo(NOW + 1_999);
        assertThat(timestamps.extractTimestamp(request("b", NOW - HOUR), NOW)).isEqualTo(NOW - HOUR);
    }

    @Test
    void noRecordTimestamp_keepsTheEventTime_rejectedRecordsGetZero() {
        assertThat(timestamps.extractTimestamp(request("a", NOW + HOUR), TimestampAssigner.NO_TIMESTAMP)).isEqualTo(NOW + HOUR);
        RequestRecord rejected = new RequestRecord(null,
                DeadLetter.of(new byte[] {1}, "inference-requests", 0, 7, "bad", NOW), 0, 7);
        assertThat(timestamps.extractTimestamp(rejected, NOW)).isZero();
    }

    /**
     * Bounded out-of-orderness watermarks (what the job uses) over a request stamped an hour ahead of its record,
     * then normal ones: the watermark stays behind every normal request (without the bound it would be an hour
     * ahead, and every normal request would be late, uncounted by the rate estimators).
     */
    @Test
    void oneRequestAnHourAhead_doesNotMakeLaterNormalRequestsLate() {
        BoundedOutOfOrdernessWatermarks<RequestRecord> generator = new BoundedOutOfOrdernessWatermarks<>(Duration.ofSeconds(2));
        List<Long> watermarks = new ArrayList<>();
        WatermarkOutput out = collecting(watermarks);

        RequestRecord skewed = request("skewed", NOW + HOUR);
        generator.onEvent(skewed, timestamps.extractTimestamp(skewed, NOW), out);
        for (int i = 1; i <= 10; i++) {
            long t = NOW + i * 100L;
            RequestRecord normal = request("r" + i, t);
            long ts = timestamps.extractTimestamp(normal, t);
            generator.onPeriodicEmit(out);
            assertThat(ts).as("normal request %s is not behind the watermark", i)
                    .isGreaterThan(watermarks.get(watermarks.size() - 1));
            generator.onEvent(normal, ts, out);
        }
        generator.onPeriodicEmit(out);
        assertThat(watermarks.get(watermarks.size() - 1)).isLessThan(NOW + 2_000);
    }

    @Test
    void withoutTheBound_theSameStreamWouldMakeEveryNormalRequestLate() {
        BoundedOutOfOrdernessWatermarks<RequestRecord> generator = new BoundedOutOfOrdernessWatermarks<>(Duration.ofSeconds(2));
        List<Long> watermarks = new ArrayList<>();
        generator.onEvent(request("skewed", NOW + HOUR), NOW + HOUR, collecting(watermarks));
        generator.onPeriodicEmit(collecting(watermarks));
        assertThat(watermarks.get(0)).as("the case the bound prevents").isGreaterThan(NOW + 1_000);
    }

    private static RequestRecord request(String id, long eventTime) {
        return new RequestRecord(InferenceRequest.of(id, "m", "t", eventTime, null), null, 0, 0);
    }

    private static WatermarkOutput collecting(List<Long> into) {
        return new WatermarkOutput() {
            @Override
            public void emitWatermark(Watermark watermark) {
                into.add(watermark.getTimestamp());
            }

            @Override
            public void markIdle() {}

            @Override
            public void markActive() {}
        };
    }
}
