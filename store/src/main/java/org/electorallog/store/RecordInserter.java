package org.electorallog.store;

import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

/**
 * The two ways a batch's records can go into PostgreSQL, measured against each other by
 * {@code perf} ({@code RecordInsertComparison}); the projector uses the faster ({@link #DEFAULT}).
 */
public enum RecordInserter {
    /** {@code INSERT INTO records SELECT FROM unnest(array, array, ...)}: one statement, typed arrays. */
    UNNEST {
        @Override
        public void insert(Connection c, String table, List<RecordRow> rows) throws SQLException {
            int n = rows.size();
            Short[] boards = new Short[n];
            Long[] ids = new Long[n];
            Long[] created = new Long[n];
            Long[] stmtTs = new Long[n];
            Short[] kinds = new Short[n];
            Integer[] senders = new Integer[n];
            String[] users = new String[n];
            String[] usernames = new String[n];
            String[] elections = new String[n];
            String[] areas = new String[n];
            String[] ballots = new String[n];
            String[] deliveries = new String[n];
            byte[][] statements = new byte[n][];
            Integer[] schemaIds = new Integer[n];
            Integer[] partitions = new Integer[n];
            Long[] offsets = new Long[n];
            byte[][] senderSigs = new byte[n][];
            byte[][] systemSigs = new byte[n][];
            String[] eventTypes = new String[n];
            String[] errors = new String[n];
            byte[][] openings = new byte[n][];
            Long[] leafKeys = new Long[n];
            for (int i = 0; i < n; i++) {
                RecordRow r = rows.get(i);
                RecordContent x = r.content();
                boards[i] = r.boardId();
                ids[i] = r.id();
                created[i] = r.createdMillis();
                stmtTs[i] = x.statementMillis();
                kinds[i] = x.kind();
                senders[i] = r.senderId();
                users[i] = x.fields().userId();
                usernames[i] = x.fields().username();
                elections[i] = x.fields().electionId();
                areas[i] = x.fields().areaId();
                ballots[i] = x.fields().ballotId();
                deliveries[i] = x.deliveryId();
                statements[i] = x.storedStatement();
                schemaIds[i] = x.schemaId();
                partitions[i] = x.partition();
                offsets[i] = x.offset();
                senderSigs[i] = x.senderSignature();
                systemSigs[i] = x.systemSignature();
                eventTypes[i] = x.eventType();
                errors[i] = x.error();
                openings[i] = x.openings();
                leafKeys[i] = x.leafKey();
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + checked(table)
                    + " (board_id, id, created, statement_ts, kind, sender_id, user_id, username, "
                    + "election_id, area_id, ballot_id, delivery_id, stored_statement, schema_id, kafka_partition, kafka_offset, "
                    + "sender_signature, system_signature, event_type, error, openings, leaf_key) SELECT u.board, u.id, timestamptz 'epoch' + u.created * interval '1 millisecond', "
                    + "timestamptz 'epoch' + u.stmt_ts * interval '1 millisecond', u.kind, u.sender, u.user_id, "
                    + "u.username, u.election_id, u.area_id, u.ballot_id, u.delivery_id, u.statement, u.schema_id, "
                    + "u.part, u.off, u.sender_sig, u.system_sig, u.event_type, u.error, u.openings, u.leaf_key "
                    + "FROM unnest(?::smallint[], "
                    + "?::bigint[], ?::bigint[], ?::bigint[], ?::smallint[], ?::integer[], ?::text[], ?::text[], ?::text[], "
                    + "?::text[], ?::text[], ?::text[], ?::bytea[], ?::integer[], ?::integer[], ?::bigint[], ?::bytea[], "
                    + "?::bytea[], ?::text[], ?::text[], ?::bytea[], ?::bigint[]) AS u(board, id, created, stmt_ts, kind, sender, user_id, username, "
                    + "election_id, area_id, ballot_id, delivery_id, statement, schema_id, part, off, sender_sig, "
                    + "system_sig, event_type, error, openings, leaf_key)")) {
                int p = 1;
                ps.setArray(p++, c.createArrayOf("smallint", boards));
                ps.setArray(p++, c.createArrayOf("bigint", ids));
                ps.setArray(p++, c.createArrayOf("bigint", created));
                ps.setArray(p++, c.createArrayOf("bigint", stmtTs));
                ps.setArray(p++, c.createArrayOf("smallint", kinds));
                ps.setArray(p++, c.createArrayOf("integer", senders));
                ps.setArray(p++, c.createArrayOf("text", users));
                ps.setArray(p++, c.createArrayOf("text", usernames));
                ps.setArray(p++, c.createArrayOf("text", elections));
                ps.setArray(p++, c.createArrayOf("text", areas));
                ps.setArray(p++, c.createArrayOf("text", ballots));
                ps.setArray(p++, c.createArrayOf("text", deliveries));
                ps.setArray(p++, c.createArrayOf("bytea", statements));
                ps.setArray(p++, c.createArrayOf("integer", schemaIds));
                ps.setArray(p++, c.createArrayOf("integer", partitions));
                ps.setArray(p++, c.createArrayOf("bigint", offsets));
                ps.setArray(p++, c.createArrayOf("bytea", senderSigs));
                ps.setArray(p++, c.createArrayOf("bytea", systemSigs));
                ps.setArray(p++, c.createArrayOf("text", eventTypes));
                ps.setArray(p++, c.createArrayOf("text", errors));
                ps.setArray(p++, c.createArrayOf("bytea", openings));
                ps.setArray(p, c.createArrayOf("bigint", leafKeys));
                ps.executeUpdate();
            }
        }
    },

    /** {@code COPY records FROM STDIN (FORMAT binary)}: PostgreSQL's bulk path, no SQL parsing per row. */
    BINARY_COPY {
        @Override
        public void insert(Connection c, String table, List<RecordRow> rows) throws SQLException {
            BinaryCopy.copyIn(
                    c,
                    "COPY " + checked(table) + " (" + COPY_COLUMNS + ") FROM STDIN (FORMAT binary)",
                    encode(rows),
                    rows.size() + " records");
        }

        /**
         * PostgreSQL binary COPY ({@link BinaryCopy}): per row the field count, the four fields the
         * batch sets, then the content's fields as encoded when the event was decoded
         * ({@link RecordContent}), into one array of the exact size.
         */
        private byte[] encode(List<RecordRow> rows) {
            int size = BinaryCopy.HEADER_BYTES + BinaryCopy.TRAILER_BYTES;
            for (RecordRow r : rows) {
                size += ROW_PREFIX_BYTES + r.content().copyFields().length;
            }
            ByteBuffer b = ByteBuffer.allocate(size);
            BinaryCopy.header(b);
            for (RecordRow r : rows) {
                b.putShort((short) (4 + RecordContent.FIELDS));
                b.putInt(2).putShort(r.boardId());
                b.putInt(8).putLong(r.id());
                b.putInt(8).putLong(r.createdMillis() * 1000 - RecordContent.PG_EPOCH_MICROS);
                b.putInt(4).putInt(r.senderId());
                b.put(r.content().copyFields());
            }
            BinaryCopy.trailer(b);
            return b.array();
        }
    };

    /**
     * The columns of records in the order binary COPY sends them: first the four that the batch
     * sets, then those of {@link RecordContent}, encoded in that order.
     */
    public static final String COPY_COLUMNS =
            "board_id, id, created, sender_id, statement_ts, kind, user_id, username, "
                    + "election_id, area_id, ballot_id, delivery_id, stored_statement, schema_id, kafka_partition, kafka_offset, "
                    + "sender_signature, system_signature, event_type, error, openings, leaf_key";

    /** A row's field count and the batch's four fields with their lengths. */
    private static final int ROW_PREFIX_BYTES = 2 + (4 + 2) + (4 + 8) + (4 + 8) + (4 + 4);

    /** The inserter the projector uses: the faster of the two as measured (see projector/README.md). */
    public static final RecordInserter DEFAULT = BINARY_COPY;

    /**
     * Inserts the rows into the projection's records table and their delivery keys into deliveries
     * (V15), in the caller's transaction. The rows' IDs must have partitions ({@link
     * RecordPartitions#cover}). A delivery key already stored on the board fails the transaction
     * ({@link Deliveries#isStoredKey}).
     */
    public void insert(Connection c, List<RecordRow> rows) throws SQLException {
        insert(c, "records", rows);
        Deliveries.insert(c, rows);
    }

    /**
     * Inserts the rows into {@code table} only: records without their delivery keys (for comparing
     * the two ways), or a copy of it with the same columns (perf's ceiling_records).
     */
    public abstract void insert(Connection c, String table, List<RecordRow> rows) throws SQLException;

    /** The tables rows may go to: never a name from outside the code. */
    static String checked(String table) {
        if (!table.equals("records") && !table.equals("ceiling_records")) {
            throw new IllegalArgumentException("records go to records or ceiling_records, not " + table);
        }
        return table;
    }
}
