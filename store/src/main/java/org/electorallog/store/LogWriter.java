package org.electorallog.store;

import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.electorallog.core.Tile;

/**
 * The projection's writes inside one transaction that a {@link Projection} opened, commits and
 * rolls back ({@link Projection#commit}, {@link Projection#decide}): what the projector's batch
 * (lease, records, tiles, counters, board state, checkpoints), its witnessing loop and its
 * start-up write, typed, the SQL in the table classes this delegates to. {@link #reads} reads in
 * the same transaction. A writer lives only as long as the work it was given; failures are
 * {@link ProjectionException}s, which roll the transaction back.
 */
public final class LogWriter {
    private final Connection c;
    private final LogReader reads;

    LogWriter(Connection c) {
        this.c = c;
        this.reads = new LogReader(c);
    }

    /**
     * A writer on a connection the caller holds and ends: for tests, which arrange and inspect the
     * database with JDBC (the build keeps main code outside this module from naming a connection).
     */
    public static LogWriter on(Connection c) {
        return new LogWriter(c);
    }

    /** Reads in this transaction (it sees this transaction's own writes). */
    public LogReader reads() {
        return reads;
    }

    // the partition's lease and the topic's layout

    /** Takes partition {@code partition} of {@code topic} for this task: its epoch bumped ({@link PartitionLease#acquire}). */
    public PartitionLease acquire(String topic, int partition) {
        return ProjectionException.wrap(
                "taking partition " + topic + "-" + partition, () -> PartitionLease.acquire(c, topic, partition));
    }

    /** Moves the lease's stored offset from {@code expected} to {@code next}; false when another task took it. */
    public boolean advance(PartitionLease lease, long expected, long next) {
        return ProjectionException.wrap("moving a partition's offset", () -> lease.advance(c, expected, next));
    }

    /** Whether the lease's task still holds its partition (its epoch is the stored one). */
    public boolean held(PartitionLease lease) {
        return ProjectionException.wrap("checking a partition's epoch", () -> lease.held(c));
    }

    /** The partition count recorded for {@code topic}, its row locked until this transaction ends. */
    public Optional<Integer> lockRecordedLayout(String topic) {
        return ProjectionException.wrap("reading the topic's layout", () -> TopicLayouts.lockRecorded(c, topic));
    }

    /** Whether any partition of {@code topic} was projected from (an offset above 0). */
    public boolean anyProjected(String topic) {
        return ProjectionException.wrap("reading the partitions' offsets", () -> PartitionLease.anyProjected(c, topic));
    }

    /** Records {@code topic}'s partition count. */
    public void recordLayout(String topic, int partitions) {
        run("recording the topic's layout", () -> TopicLayouts.record(c, topic, partitions));
    }

    /** Records an Avro writer schema once. */
    public void recordWriterSchema(int schemaId, byte[] fingerprint, String schemaJson) {
        run("recording a writer schema", () -> WriterSchemas.record(c, schemaId, fingerprint, schemaJson));
    }

    // boards

    /** Creates board {@code name} with an empty tree ({@link Boards#create}). */
    public BoardRow createBoard(String name, String origin, long createdMillis, byte[] emptyRoot) {
        return ProjectionException.wrap(
                "creating board " + name, () -> Boards.create(c, name, origin, createdMillis, emptyRoot));
    }

    /** Creates a scratch board under a negative ID (the warm-up's, rolled back). */
    public BoardRow createScratch(short negativeId, String name, String origin, long createdMillis, byte[] emptyRoot) {
        return ProjectionException.wrap(
                "creating a scratch board",
                () -> Boards.createScratch(c, negativeId, name, origin, createdMillis, emptyRoot));
    }

    /** A board's tree state after a batch ({@link Boards#update}). */
    public void updateBoard(
            short boardId,
            long size,
            byte[] root,
            Long lastCreatedMillis,
            int dropped,
            Long sealedMillis,
            Long committedFrom) {
        run(
                "updating a board's state",
                () -> Boards.update(c, boardId, size, root, lastCreatedMillis, dropped, sealedMillis, committedFrom));
    }

    /** The boards whose size has no checkpoint yet. */
    public List<BoardState> boardsWithoutCurrentCheckpoint() {
        return ProjectionException.wrap(
                "finding boards without a current checkpoint", () -> Boards.withoutCurrentCheckpoint(c));
    }

    // records, tiles, counters

    /** Attaches board {@code boardId}'s partitions up to record {@code lastId}; the new end. */
    public long coverPartitions(short boardId, long lastId) {
        return ProjectionException.wrap(
                "attaching a records partition", () -> RecordPartitions.cover(c, boardId, lastId));
    }

    /** The IDs of sender keys, interned when new. */
    public Map<ByteBuffer, Integer> internSenders(Collection<ByteBuffer> publicKeys) {
        return ProjectionException.wrap("interning sender keys", () -> Senders.intern(c, publicKeys));
    }

    /** Inserts a batch's records with their delivery keys (binary COPY, {@link RecordInserter#DEFAULT}). */
    public void insertRecords(List<RecordRow> rows) {
        run("inserting records", () -> RecordInserter.DEFAULT.insert(c, rows));
    }

    /** Inserts records with {@code method} (perf compares the methods: {@code RecordInsertComparison}). */
    public void insertRecords(RecordInserter method, List<RecordRow> rows) {
        run("inserting records", () -> method.insert(c, rows));
    }

    /** Writes the changed tiles of a board. */
    public void writeTiles(short boardId, List<Tile> tiles) {
        run("writing tiles", () -> Tiles.write(c, boardId, tiles));
    }

    /** The leaf hashes of records {@code ids} from the level-0 tiles. */
    public Map<Long, byte[]> leaves(short boardId, Collection<Long> ids) {
        return ProjectionException.wrap("reading leaf hashes", () -> Tiles.leaves(c, boardId, ids));
    }

    /** Adds a batch's counter deltas. */
    public void addCounters(short boardId, Map<CounterKey, Long> deltas) {
        run("adding counters", () -> Counters.add(c, boardId, deltas));
    }

    /** Adds a batch's hourly counts. */
    public void addHourlyCounts(short boardId, Map<HourlyCounts.Key, Long> deltas) {
        run("adding hourly counts", () -> HourlyCounts.add(c, boardId, deltas));
    }

    /** The delivery IDs among {@code keys} a board holds already, with the records holding them. */
    public Map<String, Long> storedDeliveries(short boardId, Collection<ByteBuffer> keys) {
        return ProjectionException.wrap("looking up delivery IDs", () -> Deliveries.storedRecords(c, boardId, keys));
    }

    /** The grants of sender keys {@code keys} (the registry's check of a batch). */
    public Map<ByteBuffer, List<SenderGrant>> grantsFor(Collection<ByteBuffer> keys) {
        return ProjectionException.wrap("reading sender grants", () -> SenderGrants.forKeys(c, keys));
    }

    /** Which of the data keys {@code keyIds} were erased (share lock until this transaction ends). */
    public Set<String> erasedKeysAmong(Collection<String> keyIds) {
        return ProjectionException.wrap("reading erased data keys", () -> SqlDataKeys.erasedAmong(c, keyIds));
    }

    /** Which of the statements {@code leafHashes} were erased by user. */
    public Set<ByteBuffer> erasedStatementsAmong(Collection<byte[]> leafHashes) {
        return ProjectionException.wrap(
                "reading erased statements", () -> SqlDataKeys.erasedStatementsAmong(c, leafHashes));
    }

    // checkpoints and cosignatures

    /** Adds a signed checkpoint (kept once per size). */
    public void addCheckpoint(short boardId, CheckpointRow checkpoint) {
        run("adding a checkpoint", () -> Checkpoints.add(c, boardId, checkpoint));
    }

    /** A board's checkpoint at {@code size}. */
    public Optional<CheckpointRow> checkpointAt(short boardId, long size) {
        return ProjectionException.wrap("reading a checkpoint", () -> Checkpoints.at(c, boardId, size));
    }

    /** Adds a witness's cosignature line. */
    public void addCosignature(short boardId, long size, String witness, String line, long cosignedSeconds) {
        run("adding a cosignature", () -> Cosignatures.add(c, boardId, size, witness, line, cosignedSeconds));
    }

    /** The last size {@code witness} cosigned on a board (0 for none). */
    public long lastCosignedSize(short boardId, String witness) {
        return ProjectionException.wrap(
                "reading a witness's last cosigned size", () -> Cosignatures.lastSize(c, boardId, witness));
    }

    /**
     * Marks a checkpoint witnessed (the caller decided that its stored cosignatures meet the policy);
     * whether it did now.
     */
    public boolean markWitnessed(short boardId, long size) {
        return ProjectionException.wrap(
                "marking a checkpoint witnessed", () -> Cosignatures.markWitnessed(c, boardId, size));
    }

    /** The witness keys whose cosignature of the checkpoint at {@code size} is stored. */
    public Set<String> witnessesAt(short boardId, long size) {
        return ProjectionException.wrap(
                "reading a checkpoint's cosigners", () -> Cosignatures.witnessesAt(c, boardId, size));
    }

    /** A size above {@code afterSize}, cosigned by some, not yet witnessed, that {@code witness} has not cosigned. */
    public Optional<Long> shortOfQuorum(short boardId, String witness, long afterSize) {
        return ProjectionException.wrap(
                "reading checkpoints short of their quorum",
                () -> Cosignatures.shortOfQuorum(c, boardId, witness, afterSize));
    }

    private interface Step {
        void run() throws SQLException;
    }

    private static void run(String what, Step step) {
        ProjectionException.wrap(what, () -> {
            step.run();
            return null;
        });
    }
}
