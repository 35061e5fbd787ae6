package dev.nona.bench;

import dev.nona.topics.Topics;
import dev.nona.topics.client.ClientProperties;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Sends {@link BadInput}'s malformed records at a fixed rate on an open-loop schedule, on its own thread and with
 * its own producer, while {@link LatencyPublisher} sends the good requests: the two interleave on the broker and in
 * the controller's sources, but a 5 MB send never queues a good request behind it in the benchmark's own client
 * (that would measure the client, not the controller). Counts what the broker acknowledged and what it refused.
 *
 * <p>{@link #main} runs it as a process of its own ({@link BadInputProcess}), as {@code bench latency} does: its
 * buffers of the large values (about 9 MB/s of allocation at 1,000 records/s) then never pause the controller's JVM.
 */
public final class BadInputPublisher implements AutoCloseable {
    /** The producer's largest request: room for the 5 MB value. */
    public static final int MAX_REQUEST_BYTES = 8 << 20;

    private final BadInput input = new BadInput();
    private final KafkaProducer<byte[], byte[]> producer;
    private final double rate;
    private final long limit;
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong acked = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final Thread thread;
    private volatile boolean running = true;

    public BadInputPublisher(String bootstrap, double rate) {
        this(bootstrap, rate, 0);
    }

    /** Sends at most {@code limit} records ({@code 0}: until stopped). */
    public BadInputPublisher(String bootstrap, double rate, long limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("limit (" + limit + ") must be >= 0");
        }
        this.rate = rate;
        this.limit = limit;
        Properties p = ClientProperties.producer(bootstrap, 0);
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "nona-latency-bad-input");
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, String.valueOf(MAX_REQUEST_BYTES));
        p.put(ProducerConfig.BUFFER_MEMORY_CONFIG, String.valueOf(4L * MAX_REQUEST_BYTES));
        this.producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
        this.thread = new Thread(this::loop, "nona-latency-bad-input");
        thread.setDaemon(true);
    }

    public BadInputPublisher start() {
        thread.start();
        return this;
    }

    private void loop() {
        double periodNanos = 1e9 / rate;
        long t0 = System.nanoTime();
        for (long i = 0; running && (limit == 0 || i < limit); i++) {
            long due = t0 + Math.round(i * periodNanos);
            long wait;
            while (running && (wait = due - System.nanoTime()) > 0) {
                LockSupport.parkNanos(Math.max(wait, LatencyPublisher.MIN_PARK_NANOS));
            }
            if (!running) {
                return;
            }
            BadInput.Bad bad = input.record(i);
            sent.incrementAndGet();
            producer.send(new ProducerRecord<>(bad.topic(), bad.key(), bad.value()), (meta, e) -> {
                (e == null ? acked : refused).incrementAndGet();
            });
        }
    }

    /** Stops sending and waits for the broker's answers to what was sent. */
    public void stop() {
        running = false;
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        producer.flush();
    }

    public long sent() {
        return sent.get();
    }

    /** Malformed records the broker stored (each should become one dead letter). */
    public long acked() {
        return acked.get();
    }

    /** Malformed records the broker refused (too large for the topic, say): they never reach the controller. */
    public long refused() {
        return refused.get();
    }

    /** The line a child process prints when its producer is ready: {@value}. */
    static final String READY = "bad-input ready";
    /**
     * The start of the line a child process with a limit prints once it has sent them all and had the broker's
     * answers: {@value}, then sent and the milliseconds from the first send to the last answer.
     */
    static final String DONE = "bad-input done";
    /** The start of the line a child process prints when it stops: {@value}, then sent, acked and refused. */
    static final String COUNTS = "bad-input counts";

    /**
     * The child process of {@link BadInputProcess}: {@code <bootstrap> <rate> <go-file> [<limit>]}. Prints
     * {@link #READY} once its producer is connected, starts sending when {@code go-file} exists (at most
     * {@code limit} records; 0 or none: until stopped), and on SIGTERM stops, waits for the broker's answers and
     * prints {@link #COUNTS}.
     */
    public static void main(String[] args) throws Exception {
        if (args.length != 3 && args.length != 4) {
            throw new IllegalArgumentException("usage: BadInputPublisher <bootstrap> <rate> <go-file> [<limit>]");
        }
        BadInputPublisher publisher = new BadInputPublisher(args[0], Double.parseDouble(args[1]),
                args.length == 4 ? Long.parseLong(args[3]) : 0);
        Thread stopped = new Thread(() -> {
            publisher.close();
            System.out.println(counts(publisher.sent(), publisher.acked(), publisher.refused()));
            System.out.flush();
        }, "bad-input-stop");
        Runtime.getRuntime().addShutdownHook(stopped);
        publisher.producer.partitionsFor(Topics.INFERENCE_REQUESTS.name());
        publisher.producer.partitionsFor(Topics.MODEL_CATALOG.name());
        System.out.println(READY);
        System.out.flush();
        Path go = Path.of(args[2]);
        while (!Files.exists(go)) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        long startNanos = System.nanoTime();
        publisher.start();
        if (publisher.limit > 0) {
            publisher.thread.join();
            publisher.producer.flush();
            System.out.println(String.format(Locale.ROOT, "%s %d %d", DONE, publisher.sent(),
                    (System.nanoTime() - startNanos) / 1_000_000));
            System.out.flush();
        }
        Thread.currentThread().join(); // until SIGTERM
    }

    static String counts(long sent, long acked, long refused) {
        return String.format(Locale.ROOT, "%s %d %d %d", COUNTS, sent, acked, refused);
    }

    @Override
    public void close() {
        stop();
        producer.close(Duration.ofSeconds(10));
    }
}
