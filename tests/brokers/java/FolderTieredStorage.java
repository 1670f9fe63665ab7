// A RemoteStorageManager for the releases whose storage test jar Maven Central does not serve (4.2.2):
// it writes the layout of Kafka's own LocalTieredStorage (RemoteLogSegmentFileset), which kafkaspec reads
// as "local-tiered": <dir>/kafka-tiered-storage/<topic>-<partition>-<topic id>/
// <20-digit start offset>-<segment id>.{log,index,timeindex,txnindex,snapshot,leader_epoch_checkpoint},
// each file the broker's own, copied as it is, the producer snapshot last (as LocalTieredStorage with
// BlockingTransferer, whose stop at the third upload it does too). Configured as LocalTieredStorage is:
// rsm.config.dir.

import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.server.log.remote.storage.LogSegmentData;
import org.apache.kafka.server.log.remote.storage.RemoteLogSegmentMetadata;
import org.apache.kafka.server.log.remote.storage.RemoteResourceNotFoundException;
import org.apache.kafka.server.log.remote.storage.RemoteStorageException;
import org.apache.kafka.server.log.remote.storage.RemoteStorageManager;

public class FolderTieredStorage implements RemoteStorageManager {
    static final int BLOCK_AT = 3;
    static int uploads = 0;
    private File dir;

    @Override
    public void configure(Map<String, ?> configs) {
        dir = new File(String.valueOf(configs.get("dir")));
    }

    private File file(RemoteLogSegmentMetadata m, String suffix) {
        TopicIdPartition tp = m.remoteLogSegmentId().topicIdPartition();
        File folder = new File(new File(dir, "kafka-tiered-storage"), tp.topic() + "-" + tp.partition() + "-" + tp.topicId());
        return new File(folder, String.format("%020d-%s%s", m.startOffset(), m.remoteLogSegmentId().id(), suffix));
    }

    @Override
    public Optional<RemoteLogSegmentMetadata.CustomMetadata> copyLogSegmentData(RemoteLogSegmentMetadata m, LogSegmentData data)
            throws RemoteStorageException {
        try {
            file(m, "").getParentFile().mkdirs();
            copy(data.logSegment(), file(m, ".log"));
            copy(data.offsetIndex(), file(m, ".index"));
            copy(data.timeIndex(), file(m, ".timeindex"));
            if (data.transactionIndex().isPresent()) copy(data.transactionIndex().get(), file(m, ".txnindex"));
            try (FileChannel out = FileChannel.open(file(m, ".leader_epoch_checkpoint").toPath(),
                    StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer b = data.leaderEpochIndex().duplicate();
                while (b.hasRemaining()) out.write(b);
            }
            copy(data.producerSnapshotIndex(), file(m, ".snapshot"));
        } catch (IOException e) {
            throw new RemoteStorageException(e);
        }
        File marker = new File(dir, "blocked-upload");
        synchronized (FolderTieredStorage.class) {
            uploads++;
            if (uploads != BLOCK_AT || marker.exists()) return Optional.empty();
            File log = file(m, ".log");
            try {
                Files.write(marker.toPath(), (log.getParentFile().getName() + "/" + log.getName() + "\n").getBytes(StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new RemoteStorageException(e);
            }
        }
        while (true) {
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RemoteStorageException("interrupted while blocked", e);
            }
        }
    }

    private static void copy(Path from, File to) throws IOException {
        Files.copy(from, to.toPath(), StandardCopyOption.REPLACE_EXISTING);
    }

    private InputStream read(RemoteLogSegmentMetadata m, String suffix, int start, int end) throws RemoteStorageException {
        File f = file(m, suffix);
        if (!f.exists()) throw new RemoteResourceNotFoundException("no " + f);
        try {
            byte[] all = Files.readAllBytes(f.toPath());
            int last = end < 0 ? all.length - 1 : Math.min(end, all.length - 1);
            return new ByteArrayInputStream(all, start, Math.max(0, last - start + 1));
        } catch (IOException e) {
            throw new RemoteStorageException(e);
        }
    }

    @Override
    public InputStream fetchLogSegment(RemoteLogSegmentMetadata m, int start) throws RemoteStorageException {
        return read(m, ".log", start, -1);
    }

    @Override
    public InputStream fetchLogSegment(RemoteLogSegmentMetadata m, int start, int end) throws RemoteStorageException {
        return read(m, ".log", start, end);
    }

    @Override
    public InputStream fetchIndex(RemoteLogSegmentMetadata m, IndexType type) throws RemoteStorageException {
        switch (type) {
            case OFFSET: return read(m, ".index", 0, -1);
            case TIMESTAMP: return read(m, ".timeindex", 0, -1);
            case PRODUCER_SNAPSHOT: return read(m, ".snapshot", 0, -1);
            case TRANSACTION: return read(m, ".txnindex", 0, -1);
            case LEADER_EPOCH: return read(m, ".leader_epoch_checkpoint", 0, -1);
            default: throw new RemoteStorageException("unknown index type " + type);
        }
    }

    @Override
    public void deleteLogSegmentData(RemoteLogSegmentMetadata m) throws RemoteStorageException {
        for (String s : new String[] {".log", ".index", ".timeindex", ".txnindex", ".leader_epoch_checkpoint", ".snapshot"}) {
            file(m, s).delete();
        }
    }

    @Override
    public void close() {}
}
