package org.electorallog.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.sql.DataSource;
import org.electorallog.core.Hashes;
import org.electorallog.core.Tile;
import org.electorallog.core.TileKey;
import org.electorallog.core.TileLayout;

/**
 * Exports of table {@code records} (V1, V5): every record of a board in ID order, in batches, each
 * with its leaf hash from the level-0 tiles, in one of the {@link ExportShape}s.
 */
public final class RecordExports {
    /** A full export page in ID order (primary key), statements included. */
    public static final String PAGE_ASC = "SELECT " + Records.LISTED_COLUMNS
            + " FROM records WHERE board_id = ? AND id >= ? AND id < ? " + "ORDER BY id LIMIT ?";
    /** An export page without statements in ID order (primary key): the CSV export. */
    public static final String FIELDS_PAGE_ASC = "SELECT " + Records.FIELD_COLUMNS
            + " FROM records WHERE board_id = ? AND id >= ? AND id < ? " + "ORDER BY id LIMIT ?";
    /** The cast-vote export page without statements: records_kind in ID order after the last exported ID. */
    public static final String FIELDS_KIND_PAGE_ASC = "SELECT " + Records.FIELD_COLUMNS
            + " FROM records WHERE board_id = ? AND kind = ? " + "AND id >= ? AND id < ? ORDER BY id LIMIT ?";

    private RecordExports() {}

    /** What an export sees: one record at a time, with its RFC 6962 leaf hash. */
    @FunctionalInterface
    public interface RecordSink<E extends Exception> {
        void accept(StoredRecord record, byte[] leafHash) throws E;
    }

    /**
     * What an export carries: every record with its statement ({@link #STATEMENTS}), or the listed
     * fields alone ({@link #FIELDS}; the statement is most of a record's bytes), all records or
     * ({@code kind} not null) those of one kind. Every shape takes its leaf hashes from the level-0
     * tiles (C2SP tlog-tiles: a leaf hash is a level-0 tile entry), not by hashing statements: one
     * query for the about 11 tiles of a batch of 2,500 consecutive records instead of 2,500 SHA-256
     * computations, and the hashes the export shows are the tree's own.
     */
    public record ExportShape(boolean statements, Short kind) {
        public ExportShape {
            if (statements && kind != null) {
                throw new IllegalArgumentException("an export with statements covers every kind");
            }
        }

        public static final ExportShape STATEMENTS = new ExportShape(true, null);
        public static final ExportShape FIELDS = new ExportShape(false, null);

        public static ExportShape fieldsOf(short kind) {
            return new ExportShape(false, kind);
        }

        /** The batch's records page. */
        public String sql() {
            if (statements) {
                return PAGE_ASC;
            }
            return kind == null ? FIELDS_PAGE_ASC : FIELDS_KIND_PAGE_ASC;
        }
    }

    /**
     * Streams records [0, size) in ID order, {@code batch} per {@link #exportBatch} on a fresh
     * connection each.
     */
    public static <E extends Exception> void export(
            DataSource db, short boardId, String board, long size, int batch, ExportShape shape, RecordSink<E> sink)
            throws SQLException, E {
        long from = 0;
        while (from < size) {
            long next;
            try (Connection c = db.getConnection()) {
                next = exportBatch(c, boardId, board, from, size, batch, shape, sink);
            }
            if (next < 0) {
                return;
            }
            from = next;
        }
    }

    /**
     * One export batch: up to {@code batch} records of [from, size) in ID order, over the primary key
     * (or records_kind for a kind), then the level-0 tiles of the batch's IDs in one query
     * ({@link Tiles#BY_KEYS_SQL}, one primary-key probe a tile). Returns the ID the next batch starts
     * from, or -1 after the last batch.
     */
    public static <E extends Exception> long exportBatch(
            Connection c,
            short boardId,
            String board,
            long from,
            long size,
            int batch,
            ExportShape shape,
            RecordSink<E> sink)
            throws SQLException, E {
        List<StoredRecord> rows = new ArrayList<>(Math.min(batch, 4096));
        try (PreparedStatement ps = c.prepareStatement(shape.sql())) {
            int p = 1;
            ps.setShort(p++, boardId);
            if (shape.kind() != null) {
                ps.setShort(p++, shape.kind());
            }
            ps.setLong(p++, from);
            ps.setLong(p++, size);
            ps.setInt(p, batch);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(shape.statements() ? Records.listed(rs, board) : Records.fieldsOnly(rs));
                }
            }
        }
        if (rows.isEmpty()) {
            return -1;
        }
        // the batch's own tiles, not the range between its first and last ID: a sparse kind's
        // records may lie millions of IDs apart
        Set<TileKey> keys = new LinkedHashSet<>();
        for (StoredRecord r : rows) {
            keys.add(TileLayout.tileOf(0, r.id()));
        }
        Map<TileKey, byte[]> tiles = Tiles.read(c, boardId, keys);
        for (StoredRecord r : rows) {
            sink.accept(r, leafHash(tiles, boardId, r.id()));
        }
        return rows.size() < batch ? -1 : rows.get(rows.size() - 1).id() + 1;
    }

    /** Record {@code id}'s leaf hash: entry {@code id mod 256} of level-0 tile {@code id / 256}. */
    private static byte[] leafHash(Map<TileKey, byte[]> tiles, short boardId, long id) {
        TileKey key = TileLayout.tileOf(0, id);
        byte[] hashes = tiles.get(key);
        int position = (int) (id - key.index() * TileLayout.TILE_WIDTH);
        if (hashes == null || hashes.length < (position + 1) * Hashes.HASH_SIZE) {
            // a record without its leaf in the tree: the projection is damaged, which the audit names
            throw new IllegalStateException("board " + boardId + " has record " + id
                    + " but no leaf hash for it in level-0 tile " + key.index() + "; run electoral-log audit");
        }
        return new Tile(key, hashes).hash(position);
    }
}
