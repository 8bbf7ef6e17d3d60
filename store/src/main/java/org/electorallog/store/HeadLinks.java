package org.electorallog.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.electorallog.core.ProofBuilder;
import org.electorallog.core.TileSource;
import org.electorallog.core.TlogProof;
import org.electorallog.statement.HeadsBoard;

/**
 * The heads board's links (statement {@code HeadsBoard}, docs/witnesses.md): what the head writer enters
 * each round, and which heads entry covers a board's record. A heads entry is found by its delivery ID
 * ({@code head:<board>:<size>}) in {@code deliveries} (V15), so no table of its own is needed: the
 * projection of the heads board is the index.
 */
public final class HeadLinks {
    private HeadLinks() {}

    /**
     * Every board's latest signed checkpoint (one lateral probe of the checkpoints primary key a
     * board) but the heads board's own, with the projection time of the last record it covers (a
     * probe of the records primary key): what a head round compares with what it already entered,
     * and the time its entry states, so that the entry for one checkpoint is the same statement
     * whenever it is made (issue 61: a repeat with other content is refused).
     */
    public static final String LATEST_SQL = "SELECT b.name, k.size, k.root, k.note, "
            + "(extract(epoch FROM r.created) * 1000)::bigint FROM boards b "
            + "JOIN LATERAL (SELECT c.size, c.root, c.note FROM checkpoints c WHERE c.board_id = b.board_id "
            + "ORDER BY c.size DESC LIMIT 1) k ON true "
            + "LEFT JOIN records r ON r.board_id = b.board_id AND r.id = k.size - 1 WHERE b.name <> ? ORDER BY b.name";

    /**
     * A board's latest checkpoint and the projection time of its last record (milliseconds; 0 for a
     * checkpoint of no record).
     */
    public record Latest(String board, CheckpointRow checkpoint, long lastCreatedMillis) {}

    /** Every board's latest checkpoint but {@code heads}'s ({@link #LATEST_SQL}). */
    public static List<Latest> latest(Connection c, String heads) throws SQLException {
        List<Latest> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(LATEST_SQL)) {
            ps.setString(1, heads);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new Latest(
                            rs.getString(1),
                            new CheckpointRow(rs.getLong(2), rs.getBytes(3), rs.getString(4)),
                            rs.getLong(5)));
                }
            }
        }
        return out;
    }

    /**
     * The newest checkpoint of a board above a record whose heads entry is below a heads size: the
     * board's checkpoints newest first (its primary key, backwards), each one's heads entry probed by
     * delivery key (deliveries primary key) and its ID compared in full (two IDs of one key are told
     * apart). Usually the first few rows answer: the newest checkpoints' entries are just past the
     * witnessed heads size, the ones before them inside it.
     */
    public static final String LINK_SQL =
            "SELECT c.size, c.root, c.note, r.id, " + RecordStatements.READ_COLUMNS + " FROM checkpoints c "
                    + "JOIN deliveries d ON d.key = board_delivery_key(?::smallint, 'head:' || ? || ':' || c.size) "
                    + "JOIN records r ON r.board_id = ? AND r.id = d.id AND r.delivery_id = 'head:' || ? || ':' || c.size "
                    + RecordStatements.JOIN_BOARD + " "
                    + "WHERE c.board_id = ? AND c.size > ? AND d.id < ? ORDER BY c.size DESC LIMIT 1";

    /**
     * A board checkpoint with its heads entry: the entry's index in the heads board and its canonical
     * bytes.
     */
    @SuppressWarnings("ArrayRecordComponent") // a row, never compared as a value
    public record Link(CheckpointRow checkpoint, long entryIndex, byte[] entry) {}

    /**
     * The newest checkpoint of board {@code boardId} ({@code board}) that covers record {@code
     * record} and whose heads entry is among the first {@code headsSize} entries of the heads board
     * {@code headsId} ({@link #LINK_SQL}); empty when none is.
     */
    public static Optional<Link> link(
            Connection c, short headsId, long headsSize, short boardId, String board, long record) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(LINK_SQL)) {
            ps.setShort(1, headsId);
            ps.setString(2, board);
            ps.setShort(3, headsId);
            ps.setString(4, board);
            ps.setShort(5, boardId);
            ps.setLong(6, record);
            ps.setLong(7, headsSize);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                return Optional.of(new Link(
                        new CheckpointRow(rs.getLong(1), rs.getBytes(2), rs.getString(3)),
                        rs.getLong(4),
                        RecordStatements.canonical(rs, 5)));
            }
        }
    }

    /** A link whose heads checkpoint the witness quorum cosigned, with the entry's inclusion proof in it. */
    public record Witnessed(Link link, TlogProof entryProof) {}

    /**
     * The newest link of board {@code board} covering record {@code record} (-1: any) in the latest
     * heads checkpoint a witness quorum cosigned, with the entry's RFC 9162 inclusion proof in it
     * (from {@code headsTiles}, the heads board's tiles, given its ID) and that checkpoint's cosigned
     * note; empty without a witnessed heads checkpoint or a link in it. What the query API serves as
     * {@code /heads-link} and in chained bundles, and what the publisher writes beside a board.
     */
    public static Optional<Witnessed> witnessed(
            Connection c, BoardRow board, long record, Function<Short, TileSource> headsTiles) throws SQLException {
        return witnessed(c, BoardTips.witnessedTip(c, HeadsBoard.NAME), board, record, headsTiles);
    }

    /**
     * {@link #witnessed(Connection, BoardRow, long, java.util.function.Function)} in the witnessed
     * heads tip {@code heads} the caller read already.
     */
    public static Optional<Witnessed> witnessed(
            Connection c, Optional<BoardTip> heads, BoardRow board, long record, Function<Short, TileSource> headsTiles)
            throws SQLException {
        if (heads.isEmpty() || heads.get().checkpoint() == null || board.name().equals(HeadsBoard.NAME)) {
            return Optional.empty();
        }
        BoardTip h = heads.get();
        Optional<Link> row = link(c, h.board().id(), h.checkpoint().size(), board.id(), board.name(), record);
        if (row.isEmpty()) {
            return Optional.empty();
        }
        List<byte[]> proof = ProofBuilder.inclusion(
                row.get().entryIndex(),
                h.checkpoint().size(),
                headsTiles.apply(h.board().id()));
        return Optional.of(new Witnessed(
                row.get(), new TlogProof(row.get().entry(), row.get().entryIndex(), proof, h.cosignedNote())));
    }
}
