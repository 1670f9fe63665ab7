// A Kafka Streams application of the release under test in a streams group (KIP-1071,
// group.protocol=streams): a stateless topology that copies INPUT to OUTPUT. It ends once it has seen
// COUNT records and committed them (commit.interval.ms 100, and close() commits).
// Usage: java StreamsGroupWorkload BOOTSTRAP GROUP INPUT OUTPUT COUNT STATE_DIR

import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;

public class StreamsGroupWorkload {
    public static void main(String[] args) throws Exception {
        String bootstrap = args[0], group = args[1], input = args[2], output = args[3];
        int count = Integer.parseInt(args[4]);
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, group);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put("group.protocol", "streams");
        p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.ByteArraySerde.class);
        p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.ByteArraySerde.class);
        p.put(StreamsConfig.STATE_DIR_CONFIG, args[5]);
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "100");
        p.put("consumer.auto.offset.reset", "earliest");
        CountDownLatch seen = new CountDownLatch(count);
        StreamsBuilder b = new StreamsBuilder();
        b.<byte[], byte[]>stream(input).peek((k, v) -> seen.countDown()).to(output);
        try (KafkaStreams s = new KafkaStreams(b.build(), p)) {
            s.start();
            if (!seen.await(90, TimeUnit.SECONDS)) {
                System.err.println("the streams group saw " + (count - seen.getCount()) + " of " + count + " records");
                System.exit(1);
            }
            Thread.sleep(1000);
        }
    }
}
