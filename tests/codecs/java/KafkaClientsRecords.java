// Kafka's own record code (kafka-clients) as an independent writer and reader for
// tests/codecs/test_kafka_clients.py.
//
//   write FILE   appends to FILE the batches Kafka's MemoryRecordsBuilder writes for a fixed set of
//                cases (every codec at magic 2, 1 and 0; CreateTime and LogAppendTime; idempotent and
//                transactional batches with commit and abort markers; null keys and values; headers
//                with null values), offsets contiguous across batches
//   read FILE    reads FILE with FileRecords, checks every batch (ensureValid) and prints one line per
//                record: tab-separated batch fields, then the record's offset, timestamp, key, value
//                and headers (bytes as hex, "-" for null), as Kafka's reader sees them
//
// Random contents come from a seeded java.util.Random, so the file is the same on every run.

import java.io.File;
import java.io.FileOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.util.Random;

import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.EndTransactionMarker;
import org.apache.kafka.common.record.internal.FileLogInputStream.FileChannelRecordBatch;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;

public final class KafkaClientsRecords {
    private static final long BASE_TIME = 1_700_000_000_000L;
    private static final Random RANDOM = new Random(23);
    private static long nextOffset = 0;

    private static Compression codec(String name) {
        switch (name) {
            case "gzip": return Compression.gzip().build();
            case "snappy": return Compression.snappy().build();
            case "lz4": return Compression.lz4().build();
            case "zstd": return Compression.zstd().build();
            default: return Compression.NONE;
        }
    }

    private static byte[] bytes(int max, boolean nullable) {
        if (nullable && RANDOM.nextInt(5) == 0) {
            return null;
        }
        byte[] b = new byte[RANDOM.nextInt(max + 1)];
        RANDOM.nextBytes(b);
        return b;
    }

    private static MemoryRecords batch(byte magic, String codec, TimestampType type, long producerId, short epoch,
                                       int sequence, boolean transactional, int records, boolean headers) {
        ByteBuffer buffer = ByteBuffer.allocate(1 << 20);
        long logAppendTime = type == TimestampType.LOG_APPEND_TIME ? BASE_TIME + 999 : RecordBatch.NO_TIMESTAMP;
        MemoryRecordsBuilder builder = MemoryRecords.builder(buffer, magic, codec(codec), type, nextOffset,
                logAppendTime, producerId, epoch, sequence, transactional, false, 7);
        for (int i = 0; i < records; i++) {
            Header[] hs = new Header[headers ? RANDOM.nextInt(4) : 0];
            for (int h = 0; h < hs.length; h++) {
                hs[h] = new RecordHeader("h" + h + "-\u00e9", bytes(12, true));
            }
            long timestamp = magic == 0 ? RecordBatch.NO_TIMESTAMP : BASE_TIME + RANDOM.nextInt(100_000);
            builder.appendWithOffset(nextOffset++, timestamp, bytes(20, true), bytes(300, true), hs);
        }
        return builder.build();
    }

    private static void write(File file) throws Exception {
        try (FileChannel out = new FileOutputStream(file, true).getChannel()) {
            for (String codec : new String[] {"none", "gzip", "snappy", "lz4", "zstd"}) {
                for (TimestampType type : new TimestampType[] {TimestampType.CREATE_TIME, TimestampType.LOG_APPEND_TIME}) {
                    out.write(batch(RecordBatch.MAGIC_VALUE_V2, codec, type, -1L, (short) -1, -1, false, 40, true).buffer());
                    if (!codec.equals("zstd")) {  // magic 0 and 1 predate zstd
                        out.write(batch(RecordBatch.MAGIC_VALUE_V1, codec, type, -1L, (short) -1, -1, false, 25, false)
                                .buffer());
                    }
                }
                if (!codec.equals("zstd")) {
                    out.write(batch(RecordBatch.MAGIC_VALUE_V0, codec, TimestampType.NO_TIMESTAMP_TYPE, -1L, (short) -1, -1,
                            false, 25, false).buffer());
                }
                // idempotent, then a transaction committed and one aborted
                out.write(batch(RecordBatch.MAGIC_VALUE_V2, codec, TimestampType.CREATE_TIME, 4242L, (short) 3, 17, false,
                        30, true).buffer());
                for (ControlRecordType end : new ControlRecordType[] {ControlRecordType.COMMIT, ControlRecordType.ABORT}) {
                    out.write(batch(RecordBatch.MAGIC_VALUE_V2, codec, TimestampType.CREATE_TIME, 9001L, (short) 2, 0, true,
                            20, true).buffer());
                    out.write(MemoryRecords.withEndTransactionMarker(nextOffset++, BASE_TIME + 500_000, 7, 9001L, (short) 2,
                            new EndTransactionMarker(end, 11)).buffer());
                }
            }
        }
    }

    private static String hex(ByteBuffer b) {
        if (b == null) {
            return "-";
        }
        StringBuilder s = new StringBuilder();
        while (b.hasRemaining()) {
            s.append(String.format("%02x", b.get() & 0xff));
        }
        return s.toString();
    }

    private static void read(File file) throws Exception {
        StringBuilder out = new StringBuilder();
        try (FileRecords records = FileRecords.open(file)) {
            for (FileChannelRecordBatch batch : records.batches()) {
                batch.ensureValid();
                String head = batch.position() + "\t" + batch.magic() + "\t" + batch.compressionType().name + "\t"
                        + batch.timestampType().id + "\t" + batch.producerId() + "\t" + batch.producerEpoch() + "\t"
                        + batch.baseSequence() + "\t" + batch.isTransactional() + "\t" + batch.isControlBatch() + "\t"
                        + batch.partitionLeaderEpoch();
                for (Record record : batch) {
                    StringBuilder headers = new StringBuilder();
                    for (Header h : record.headers()) {
                        headers.append(hex(ByteBuffer.wrap(h.key().getBytes(StandardCharsets.UTF_8)))).append('=')
                                .append(h.value() == null ? "-" : hex(ByteBuffer.wrap(h.value()))).append(',');
                    }
                    out.append(head).append('\t').append(record.offset()).append('\t').append(record.timestamp())
                            .append('\t').append(hex(record.key())).append('\t').append(hex(record.value()))
                            .append('\t').append(headers).append('\n');
                }
            }
        }
        System.out.print(out);
    }

    public static void main(String[] args) throws Exception {
        if (args[0].equals("write")) {
            write(new File(args[1]));
        } else {
            read(new File(args[1]));
        }
    }
}
