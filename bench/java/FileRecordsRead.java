// Kafka's own reader, timed for bench/java.py: kafka-clients' FileRecords (in the package
// org.apache.kafka.common.record.internal as of 4.3) over one segment file, each batch's CRC
// checked (ensureValid) and each record's offset, timestamp, key, value and header keys read. Keys and
// values are ByteBuffer views (Java copies nothing; the remaining() calls keep the JIT from dropping the
// reads). WARM untimed passes over every file (the JIT warms over them), then per file PASSES timed ones; prints the
// record count, the best CPU time of one pass of this thread, and the CPU time of the whole process
// (garbage collection and the JIT's threads too) over the timed passes.
//
//   java -cp kafka-clients.jar:...:classes FileRecordsRead WARM PASSES FILE...

import java.io.File;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

import com.sun.management.OperatingSystemMXBean;
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
        int warm = Integer.parseInt(args[0]);
        int passes = Integer.parseInt(args[1]);
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        for (int pass = 0; pass < warm; pass++) {  // every file first: the JIT has compiled what all of them take
            for (int i = 2; i < args.length; i++) {
                try (FileRecords records = FileRecords.open(new File(args[i]))) {
                    readAll(records);
                }
            }
        }
        for (int i = 2; i < args.length; i++) {
            File file = new File(args[i]);
            long count = 0;
            long best = Long.MAX_VALUE;
            long processStart = os.getProcessCpuTime();
            for (int pass = 0; pass < passes; pass++) {
                try (FileRecords records = FileRecords.open(file)) {
                    long start = cpu.getCurrentThreadCpuTime();
                    count = readAll(records);
                    best = Math.min(best, cpu.getCurrentThreadCpuTime() - start);
                }
            }
            long process = os.getProcessCpuTime() - processStart;
            System.out.println(file.getPath() + "\t" + count + "\t" + best + "\t" + process + "\t" + passes + "\t"
                               + (sink & 1));
        }
    }
}
