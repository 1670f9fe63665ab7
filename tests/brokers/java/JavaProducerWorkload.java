// Kafka's own Java producer, from the release under test: one idempotent producer per codec, and a
// transactional producer that commits, aborts and commits again. The records are those of
// tests/support/kafka_workload.py's _record(i), so the Python side knows what to expect.
// Usage: java JavaProducerWorkload BOOTSTRAP COUNT

import java.nio.charset.StandardCharsets;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;

public class JavaProducerWorkload {
    static final String[] CODECS = {"none", "gzip", "snappy", "lz4", "zstd"};

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static ProducerRecord<byte[], byte[]> record(String topic, int i) {
        byte[] key = i % 7 == 0 ? null : bytes("key-" + (i % 13));
        byte[] value = null;
        if (i % 11 != 5) {
            StringBuilder b = new StringBuilder();
            for (int n = 0; n < 1 + i % 40; n++) b.append("value-").append(i).append('-');
            value = bytes(b.toString());
        }
        RecordHeaders headers = new RecordHeaders();
        if (i % 3 != 0) {
            RecordHeader[] all = {new RecordHeader("trace", bytes(Integer.toString(i))),
                                  new RecordHeader("dup", bytes("a")), new RecordHeader("dup", (byte[]) null)};
            for (int h = 0; h < i % 4; h++) headers.add(all[h]);
        }
        return new ProducerRecord<>(topic, i % 2, null, key, value, headers);
    }

    static Properties config(String bootstrap) {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("key.serializer", ByteArraySerializer.class.getName());
        p.put("value.serializer", ByteArraySerializer.class.getName());
        p.put("linger.ms", "5");
        p.put("batch.size", "4096");
        return p;
    }

    public static void main(String[] args) throws Exception {
        String bootstrap = args[0];
        int count = Integer.parseInt(args[1]);
        for (String codec : CODECS) {
            Properties p = config(bootstrap);
            p.put("enable.idempotence", "true");
            p.put("compression.type", codec);
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
                for (int i = 0; i < count; i++) producer.send(record("java-" + codec, i));
                producer.flush();
            }
        }
        Properties t = config(bootstrap);
        t.put("transactional.id", "kafkaspec-java");
        t.put("compression.type", "zstd");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(t)) {
            producer.initTransactions();
            boolean[] commits = {true, false, true};
            for (int round = 0; round < commits.length; round++) {
                producer.beginTransaction();
                for (int i = 0; i < 100; i++) producer.send(record("java-txn", round * 100 + i));
                producer.flush();
                if (commits[round]) producer.commitTransaction(); else producer.abortTransaction();
            }
        }
    }
}
