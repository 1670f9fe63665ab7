// Kafka's own share consumer (KIP-932) of the release under test, for a release whose share groups
// librdkafka's ShareConsumer does not read reliably (4.1's preview). It reads TOPIC in the share group
// GROUP with explicit acknowledgements, as tests/support/kafka_groups.consume_in_share_group does with
// librdkafka: every tenth offset (3 mod 10) rejected, every tenth (6 mod 10) released once, delivered
// again and accepted, the rest accepted; it commits after each poll and ends once COUNT records are
// acknowledged for good. Each acknowledgement is printed as "partition offset type" (1 accept,
// 2 release, 3 reject). The group's share.auto.offset.reset is set by the caller.
// Usage: java ShareGroupWorkload BOOTSTRAP GROUP TOPIC COUNT

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

public class ShareGroupWorkload {
    public static void main(String[] args) throws Exception {
        String bootstrap = args[0], group = args[1], topic = args[2];
        int count = Integer.parseInt(args[3]);
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("group.id", group);
        p.put("share.acknowledgement.mode", "explicit");
        Set<String> released = new HashSet<>();
        int done = 0;
        long deadline = System.currentTimeMillis() + 90_000;
        try (KafkaShareConsumer<byte[], byte[]> c =
                new KafkaShareConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            c.subscribe(List.of(topic));
            while (done < count && System.currentTimeMillis() < deadline) {
                int polled = 0;
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofSeconds(1))) {
                    polled++;
                    String key = r.partition() + " " + r.offset();
                    AcknowledgeType ack = AcknowledgeType.ACCEPT;
                    if (r.offset() % 10 == 3) {
                        ack = AcknowledgeType.REJECT;
                    } else if (r.offset() % 10 == 6 && released.add(key)) {
                        ack = AcknowledgeType.RELEASE;
                    }
                    c.acknowledge(r, ack);
                    System.out.println(key + " " + ack.id);
                    if (ack != AcknowledgeType.RELEASE) {
                        done++;
                    }
                }
                if (polled > 0) {
                    for (Map.Entry<TopicIdPartition, Optional<KafkaException>> e : c.commitSync().entrySet()) {
                        if (e.getValue().isPresent()) {
                            System.err.println("acknowledgements of " + e.getKey() + " failed: " + e.getValue().get());
                            System.exit(1);
                        }
                    }
                }
            }
        }
        if (done < count) {
            System.err.println(group + ": " + done + " of " + count + " records acknowledged");
            System.exit(1);
        }
    }
}
