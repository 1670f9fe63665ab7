// The copy step of Kafka's LocalTieredStorage (its Transferer, set by the RemoteStorageManager's config
// transferer.class), as Kafka's own: files copied as they are. Once per storage folder it stops for good
// after the third fileset of the broker's life is complete on disk (its producer snapshot, the last file
// RemoteLogSegmentFileset.copy transfers), before the RemoteLogManager hears of it: no
// COPY_SEGMENT_FINISHED is published. It leaves the file "blocked-upload" in the storage folder, naming
// that fileset's .log, so the tests can kill the broker there; after the restart the RemoteLogManager
// uploads the segment again, under another segment id (tests/support/kafka_tiered.py).

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import org.apache.kafka.server.log.remote.storage.Transferer;

public class BlockingTransferer implements Transferer {
    static final int BLOCK_AT = 3;
    static int snapshots = 0;

    @Override
    public void transfer(File from, File to) throws IOException {
        Files.copy(from.toPath(), to.toPath(), StandardCopyOption.REPLACE_EXISTING);
        if (!to.getName().endsWith(".snapshot")) return;
        // <dir>/kafka-tiered-storage/<topic>-<partition>-<topic id>/<file>
        File marker = new File(to.getParentFile().getParentFile().getParentFile(), "blocked-upload");
        synchronized (BlockingTransferer.class) {
            snapshots++;
            if (snapshots != BLOCK_AT || marker.exists()) return;
            String log = to.getName().substring(0, to.getName().length() - ".snapshot".length()) + ".log";
            Files.write(marker.toPath(), (to.getParentFile().getName() + "/" + log + "\n").getBytes(StandardCharsets.UTF_8));
        }
        while (true) {
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while blocked after " + to, e);
            }
        }
    }

    @Override
    public void transfer(ByteBuffer from, File to) throws IOException {
        try (FileChannel out = FileChannel.open(to.toPath(), StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer b = from.duplicate();
            while (b.hasRemaining()) out.write(b);
        }
    }
}
