// Kafka's own reader, timed for bench/java.py: kafka-clients' FileRecords (in the package
// org.apache.kafka.common.record.internal as of 4.3) over one segment file, each batch's CRC
// checked (ensureValid) and each record's offset, timestamp, key, value and header keys read. Keys and values are ByteBuffer views (Java copies nothing; the remaining() calls keep
// the JIT from dropping the reads). Prints, per file, the record count and the best CPU time of
// PASSES passes of this thread (the JIT warms over the first ones).
//
//   java -cp kafka-clients.jar:...:classes FileRecordsRead PASSES FILE...

import java.io.File;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;

import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.record.internal.FileLogInputStream.FileChannelRecordBatch;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.Record;

public final class FileRecordsRead {
    private static long sink;

    private static long readAll(FileRecords records) {
        long count = 0;
        for (FileChannelRecordBatch batch : records.batches()) {
            batch.ensureValid();
            for (Record record : batch) {
                sink += record.offset() + record.timestamp();
                ByteBuffer key = record.key();
                ByteBuffer value = record.value();
                sink += (key == null ? -1 : key.remaining()) + (value == null ? -1 : value.remaining());
                for (Header header : record.headers()) {
                    sink += header.key().length();
                }
                count++;
            }
        }
        return count;
    }

    public static void main(String[] args) throws Exception {
        int passes = Integer.parseInt(args[0]);
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        for (int i = 1; i < args.length; i++) {
            File file = new File(args[i]);
            long best = Long.MAX_VALUE;
            long count = 0;
            for (int pass = 0; pass < passes; pass++) {
                try (FileRecords records = FileRecords.open(file)) {
                    long start = cpu.getCurrentThreadCpuTime();
                    count = readAll(records);
                    best = Math.min(best, cpu.getCurrentThreadCpuTime() - start);
                }
            }
            System.out.println(file.getPath() + "\t" + count + "\t" + best + "\t" + (sink & 1));
        }
    }
}
