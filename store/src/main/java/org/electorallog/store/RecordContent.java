package org.electorallog.store;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.electorallog.core.Hashes;
import org.electorallog.statement.Entry;
import org.electorallog.statement.StoredStatement;

/**
 * What a record's row holds that comes from its statement and its place in the topic alone, not from
 * the board it joins (its board ID, record ID, created time and sender key ID are the batch's): the
 * columns from {@code statement_ts} to {@code leaf_key} of {@link RecordInserter#COPY_COLUMNS}. Built
 * once per event, where the event is decoded, it also encodes those columns in PostgreSQL's binary
 * COPY form and hashes the delivery ID, so that the batch writer, the projector's serial path, only
 * frames them (decision 87).
 */
public final class RecordContent {
    /** Microseconds between the Unix epoch and PostgreSQL's epoch, 2000-01-01T00:00:00Z. */
    static final long PG_EPOCH_MICROS = 946_684_800_000_000L;
    /** The columns encoded here, after the four the batch sets. */
    static final int FIELDS = 18;

    private final long statementMillis;
    private final short kind;
    private final IndexedFields fields;
    private final String deliveryId;
    private final byte[] statement;
    private final byte[] stored;
    private final int schemaId;
    private final int partition;
    private final long offset;
    private final byte[] senderSignature;
    private final byte[] systemSignature;
    private final String eventType;
    private final String error;
    private final byte[] openings;
    private final Long leafKey;
    private final byte[] copyFields;
    private final byte[] deliveryDigest;

    /**
     * @param statementMillis the statement's time (epoch milliseconds)
     * @param entry           the statement's log entry: its canonical bytes, leaf hash (a cast vote's
     *                        leaf key) and kind code, as the projector computed them once
     * @param deliveryId      the producer-chosen delivery ID (never null)
     * @param board           the name of the board the record joins, which the statement names: with the
     *                        row's delivery, election, area and ballot IDs, what its stored form refers to
     *                        (statement {@link StoredStatement}, store V22); null stores the statement bytes as
     *                        they are given (tests and perf of the write path alone)
     * @param openings        the stored openings of a statement in the committed form (core
     *                        {@code ProjectedOpenings}: store V21 records.openings), or null
     */
    public RecordContent(
            long statementMillis,
            Entry entry,
            IndexedFields fields,
            String board,
            String deliveryId,
            int schemaId,
            int partition,
            long offset,
            byte[] senderSignature,
            byte[] systemSignature,
            String eventType,
            String error,
            byte[] openings) {
        this.statementMillis = statementMillis;
        this.kind = entry.kind();
        this.fields = fields;
        this.deliveryId = deliveryId;
        this.statement = entry.canonical();
        this.stored = board == null ? statement : stored(statement, RecordContent.row(board, deliveryId, fields));
        this.schemaId = schemaId;
        this.partition = partition;
        this.offset = offset;
        this.senderSignature = senderSignature;
        this.systemSignature = systemSignature;
        this.eventType = eventType;
        this.error = error;
        this.openings = openings;
        this.leafKey = kind != RecordStatements.CAST_VOTE_KIND ? null : RecordStatements.leafKey(entry.leafHash());
        byte[] delivery = deliveryId.getBytes(StandardCharsets.UTF_8);
        this.deliveryDigest = Arrays.copyOf(Hashes.sha256(delivery), Deliveries.DIGEST_BYTES);
        this.copyFields = encode(delivery);
    }

    /**
     * The binary COPY fields (each a 32-bit length, -1 for NULL, then its bytes; "Binary Format" of
     * the COPY reference page) in the order of {@link RecordInserter#COPY_COLUMNS} from
     * {@code statement_ts} on: timestamptz as microseconds since 2000-01-01, integers big-endian,
     * text as UTF-8.
     */
    private byte[] encode(byte[] delivery) {
        byte[][] texts = {
            utf8(fields.userId()),
            utf8(fields.username()),
            utf8(fields.electionId()),
            utf8(fields.areaId()),
            utf8(fields.ballotId()),
            delivery
        };
        byte[] type = utf8(eventType);
        byte[] err = utf8(error);
        int size = FIELDS * 4
                + 8
                + 2
                + 4
                + 4
                + 8
                + length(stored)
                + length(senderSignature)
                + length(systemSignature)
                + length(type)
                + length(err)
                + length(openings)
                + (leafKey == null ? 0 : 8);
        for (byte[] t : texts) {
            size += length(t);
        }
        ByteBuffer b = ByteBuffer.allocate(size);
        b.putInt(8).putLong(statementMillis * 1000 - PG_EPOCH_MICROS);
        b.putInt(2).putShort(kind);
        for (byte[] t : texts) {
            field(b, t);
        }
        field(b, stored);
        b.putInt(4).putInt(schemaId);
        b.putInt(4).putInt(partition);
        b.putInt(8).putLong(offset);
        field(b, senderSignature);
        field(b, systemSignature);
        field(b, type);
        field(b, err);
        field(b, openings);
        if (leafKey == null) {
            b.putInt(-1);
        } else {
            b.putInt(8).putLong(leafKey);
        }
        return b.array();
    }

    /** What a stored statement of a row on this board with these columns may refer to. */
    /**
     * The stored form of a statement in this row, or its canonical bytes as they are when the stored
     * form cannot hold it (nested deeper than statement {@link StoredStatement} walks): every reader reads
     * canonical bytes as they are (rows from before V22 hold them too), so such a statement costs bytes,
     * never its record nor the batch it is in.
     */
    static byte[] stored(byte[] statement, StoredStatement.Row row) {
        try {
            return StoredStatement.stored(statement, row);
        } catch (IllegalArgumentException e) {
            return statement;
        }
    }

    public static StoredStatement.Row row(String board, String deliveryId, IndexedFields fields) {
        return new StoredStatement.Row(board, deliveryId, fields.electionId(), fields.areaId(), fields.ballotId());
    }

    private static byte[] utf8(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }

    private static int length(byte[] b) {
        return b == null ? 0 : b.length;
    }

    private static void field(ByteBuffer b, byte[] value) {
        if (value == null) {
            b.putInt(-1);
        } else {
            b.putInt(value.length).put(value);
        }
    }

    /** The encoded fields, as {@link RecordInserter} sends them after the batch's four. */
    byte[] copyFields() {
        return copyFields;
    }

    /** The first {@link Deliveries#DIGEST_BYTES} bytes of SHA-256 over the delivery ID's UTF-8 bytes. */
    byte[] deliveryDigest() {
        return deliveryDigest;
    }

    public long statementMillis() {
        return statementMillis;
    }

    public short kind() {
        return kind;
    }

    public IndexedFields fields() {
        return fields;
    }

    public String deliveryId() {
        return deliveryId;
    }

    /** The canonical statement bytes. */
    public byte[] statement() {
        return statement;
    }

    /** The statement as the row stores it (statement {@link StoredStatement}). */
    public byte[] storedStatement() {
        return stored;
    }

    public int schemaId() {
        return schemaId;
    }

    public int partition() {
        return partition;
    }

    public long offset() {
        return offset;
    }

    public byte[] senderSignature() {
        return senderSignature;
    }

    public byte[] systemSignature() {
        return systemSignature;
    }

    public String eventType() {
        return eventType;
    }

    public String error() {
        return error;
    }

    /** A cast vote's leaf key (V22 records.leaf_key: {@link RecordStatements#leafKey}), or null. */
    public Long leafKey() {
        return leafKey;
    }

    /** The stored openings (statement {@code ProjectedOpenings}), or null. */
    public byte[] openings() {
        return openings;
    }
}
