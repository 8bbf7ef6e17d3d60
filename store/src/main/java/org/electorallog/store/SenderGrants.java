package org.electorallog.store;

import java.nio.ByteBuffer;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.electorallog.statement.LogStatements;

/** Table {@code sender_grants} (V9): the sender registry. Rows are added and revoked, never deleted. */
public final class SenderGrants {
    private static final String COLUMNS = "grant_id, public_key, sender_name, board, kinds, valid_from, valid_until, "
            + "created, created_by, revoked, revoked_by, revocation_reason";

    private SenderGrants() {}

    /** Longest sender name, board name and kind list entry (the statement rules cap names at 256 bytes too). */
    static final int MAX_TEXT = 256;

    /**
     * The latest validity or revocation time (the statement rules' latest time too): a timestamp
     * PostgreSQL and JDBC both hold, where +1000000000-01-01 reached a 500 (issue 41).
     */
    public static final Instant LATEST = Instant.parse("9999-12-31T23:59:59Z");

    /**
     * What an administrator asks to grant; {@code validFrom} null means now. Build it with
     * {@link #checked} before {@link #add}.
     */
    @SuppressWarnings("ArrayRecordComponent") // a request, never compared
    public record Request(
            byte[] publicKey,
            String senderName,
            String board,
            List<String> kinds,
            Instant validFrom,
            Instant validUntil,
            String createdBy) {
        public Request {
            // a JSON body may hold [null]: kept, so that checked() names it (List.copyOf would throw)
            kinds = kinds == null ? null : Collections.unmodifiableList(new ArrayList<>(kinds));
        }

        /**
         * The request with its start filled in (now when absent), or IllegalArgumentException saying
         * what to change. A grant never starts in the past: events refused before it was made would
         * be accepted by a replay, so the projection would depend on when it was rebuilt.
         */
        public Request checked(Instant now, Collection<String> knownKinds, Predicate<String> isBoardName) {
            if (publicKey == null || publicKey.length != 32) {
                throw new IllegalArgumentException("public_key must be a 32-byte Ed25519 public key (base64), got "
                        + (publicKey == null ? "none" : publicKey.length + " bytes"));
            }
            text("sender_name", senderName);
            text("board", board);
            if (!board.equals(SenderGrant.ANY) && !isBoardName.test(board)) {
                throw new IllegalArgumentException("board '" + board
                        + "' is no board name ([a-z0-9][a-z0-9._-]{0,63}); use \"*\" for every board");
            }
            if (kinds == null || kinds.isEmpty()) {
                throw new IllegalArgumentException("kinds must name at least one statement kind, or be [\"*\"]");
            }
            for (String k : kinds) {
                if (k == null || !(k.equals(SenderGrant.ANY) || knownKinds.contains(k))) {
                    throw new IllegalArgumentException(
                            "kinds: '" + k + "' is no statement kind; use \"*\" or one of " + knownKinds);
                }
            }
            if (kinds.contains(SenderGrant.ANY) && kinds.size() > 1) {
                throw new IllegalArgumentException("kinds: \"*\" stands alone (every kind)");
            }
            // the log's own statements are covered by no grant (statement LogStatements, decision 130): a
            // grant naming them would look like it allowed what the projector refuses
            if (LogStatements.reservedBoard(board)) {
                throw new IllegalArgumentException("board '" + board + "' is the log's own: only the log's key writes "
                        + "it, and no grant covers it");
            }
            for (String k : kinds) {
                if (k.equals("BOARD_SEALED") || k.equals("PERSONAL_DATA_ERASED")) {
                    throw new IllegalArgumentException("kinds: " + k + " is one of the log's own statements, signed "
                            + "with the log's key (electoral-log seal, erase); no grant covers it");
                }
            }
            Instant earliest = now.plus(SETTLE);
            Instant from = validFrom == null ? earliest : validFrom;
            if (from.isBefore(earliest)) {
                throw new IllegalArgumentException("valid_from " + from + " is "
                        + (from.isBefore(now) ? "in the past" : "too soon")
                        + "; a grant starts " + SETTLE.toSeconds() + " s from now or later, so that it is "
                        + "in the registry before any statement it covers reaches the projector (statements "
                        + "refused before it stay refused, in any replay too)");
            }
            inRange("valid_from", from);
            if (validUntil != null) {
                inRange("valid_until", validUntil);
            }
            if (validUntil != null && !validUntil.isAfter(from)) {
                throw new IllegalArgumentException("valid_until " + validUntil + " must be after valid_from " + from);
            }
            text("created_by", createdBy);
            return new Request(publicKey, senderName, board, kinds, from, validUntil, createdBy);
        }

        private static void inRange(String name, Instant t) {
            if (t.isAfter(LATEST)) {
                throw new IllegalArgumentException(
                        name + " " + t + " is after " + LATEST + ", the latest time a grant holds");
            }
        }

        private static void text(String name, String value) {
            if (value == null || value.isBlank() || value.length() > MAX_TEXT) {
                throw new IllegalArgumentException(name + " must be 1 to " + MAX_TEXT + " characters");
            }
        }
    }

    /**
     * How long after it is made a registry change takes effect at the earliest (issue 61 item 5):
     * statements are judged by the broker's LogAppendTime, while a change is timed by the clock of the
     * host that makes it, so it must be committed before any statement its time covers reaches the
     * projector, or a replay would judge that statement otherwise than the live projection did. The
     * hosts' clocks must agree with the brokers' within it (NTP does far better).
     */
    public static final Duration SETTLE = Duration.ofSeconds(2);

    /**
     * When a revocation takes effect: {@code at}, or {@link #SETTLE} from now when absent; never
     * sooner (statements accepted before it stay valid: the log is append-only).
     */
    public static Instant revocationTime(Instant at, Instant now) {
        Instant earliest = now.plus(SETTLE);
        Instant t = at == null ? earliest : at;
        if (t.isAfter(LATEST)) {
            throw new IllegalArgumentException("a revocation takes effect by " + LATEST + ", not at " + t);
        }
        if (t.isBefore(earliest)) {
            throw new IllegalArgumentException("a revocation takes effect " + SETTLE.toSeconds()
                    + " s from now or later, not at " + t
                    + ": statements already accepted stay in the log (find them by sender key and audit them)");
        }
        return t;
    }

    /** Adds a grant; returns it as stored. */
    public static SenderGrant add(Connection c, Request r) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO sender_grants (public_key, sender_name, board, "
                + "kinds, valid_from, valid_until, created_by) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING " + COLUMNS)) {
            ps.setBytes(1, r.publicKey());
            ps.setString(2, r.senderName());
            ps.setString(3, r.board());
            ps.setArray(4, c.createArrayOf("text", r.kinds().toArray()));
            ps.setTimestamp(5, Timestamp.from(r.validFrom()));
            ps.setTimestamp(6, r.validUntil() == null ? null : Timestamp.from(r.validUntil()));
            ps.setString(7, r.createdBy());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("INSERT ... RETURNING gave no row");
                }
                return row(rs);
            }
        }
    }

    /**
     * Puts a grant back as it was (its ID, times and revocation), into the registry of a rebuilt
     * projection; a grant already there with that ID is left alone.
     */
    public static void restore(Connection c, SenderGrant g) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO sender_grants (" + COLUMNS + ") OVERRIDING SYSTEM "
                + "VALUE VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (grant_id) DO NOTHING")) {
            ps.setLong(1, g.grantId());
            ps.setBytes(2, g.publicKey());
            ps.setString(3, g.senderName());
            ps.setString(4, g.board());
            ps.setArray(5, c.createArrayOf("text", g.kinds().toArray()));
            ps.setTimestamp(6, Timestamp.from(g.validFrom()));
            ps.setTimestamp(7, g.validUntil() == null ? null : Timestamp.from(g.validUntil()));
            ps.setTimestamp(8, Timestamp.from(g.created()));
            ps.setString(9, g.createdBy());
            ps.setTimestamp(10, g.revoked() == null ? null : Timestamp.from(g.revoked()));
            ps.setString(11, g.revokedBy());
            ps.setString(12, g.revocationReason());
            ps.executeUpdate();
        }
        // later grants must not reuse the restored IDs
        try (PreparedStatement ps = c.prepareStatement("SELECT setval(pg_get_serial_sequence('sender_grants', "
                + "'grant_id'), greatest((SELECT max(grant_id) FROM sender_grants), 1))")) {
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("setval returned no row");
                }
            }
        }
    }

    /**
     * Revokes a grant from {@code at} on: its validity ends at {@code at} (or earlier, if it already
     * ended). Empty when there is no such grant or it was revoked already.
     */
    public static Optional<SenderGrant> revoke(Connection c, long grantId, Instant at, String by, String reason)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE sender_grants SET valid_until = "
                + "CASE WHEN valid_until IS NULL OR valid_until > ? THEN greatest(?, valid_from) ELSE valid_until END, "
                + "revoked = now(), revoked_by = ?, revocation_reason = ? WHERE grant_id = ? AND revoked IS NULL "
                + "RETURNING " + COLUMNS)) {
            Timestamp t = Timestamp.from(at);
            ps.setTimestamp(1, t);
            ps.setTimestamp(2, t);
            ps.setString(3, by);
            ps.setString(4, reason);
            ps.setLong(5, grantId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(row(rs)) : Optional.empty();
            }
        }
    }

    /** Whether the database has the registry (schema version 9 or later). */
    public static boolean present(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT to_regclass('sender_grants') IS NOT NULL");
                ResultSet rs = ps.executeQuery()) {
            return rs.next() && rs.getBoolean(1);
        }
    }

    /** One grant by ID. */
    public static Optional<SenderGrant> byId(Connection c, long grantId) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("SELECT " + COLUMNS + " FROM sender_grants WHERE grant_id = ?")) {
            ps.setLong(1, grantId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(row(rs)) : Optional.empty();
            }
        }
    }

    /** Every grant, oldest first (the registry is small: a few rows per sending service). */
    public static List<SenderGrant> all(Connection c) throws SQLException {
        List<SenderGrant> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM sender_grants ORDER BY grant_id");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.add(row(rs));
            }
        }
        return out;
    }

    /** The grants of each of {@code keys} (sender_grants_key); a key without grants is absent. */
    public static Map<ByteBuffer, List<SenderGrant>> forKeys(Connection c, Collection<ByteBuffer> keys)
            throws SQLException {
        byte[][] array = keys.stream().map(SenderGrants::bytes).toArray(byte[][]::new);
        Map<ByteBuffer, List<SenderGrant>> out = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT " + COLUMNS + " FROM sender_grants WHERE public_key = ANY(?::bytea[]) ORDER BY grant_id")) {
            ps.setArray(1, c.createArrayOf("bytea", array));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    SenderGrant g = row(rs);
                    out.computeIfAbsent(ByteBuffer.wrap(g.publicKey()), k -> new ArrayList<>())
                            .add(g);
                }
            }
        }
        return out;
    }

    private static byte[] bytes(ByteBuffer b) {
        ByteBuffer d = b.duplicate();
        byte[] out = new byte[d.remaining()];
        d.get(out);
        return out;
    }

    private static SenderGrant row(ResultSet rs) throws SQLException {
        Array kinds = rs.getArray(5);
        return new SenderGrant(
                rs.getLong(1),
                rs.getBytes(2),
                rs.getString(3),
                rs.getString(4),
                Arrays.asList((String[]) kinds.getArray()),
                instant(rs.getTimestamp(6)),
                instant(rs.getTimestamp(7)),
                instant(rs.getTimestamp(8)),
                rs.getString(9),
                instant(rs.getTimestamp(10)),
                rs.getString(11),
                rs.getString(12));
    }

    private static Instant instant(Timestamp t) {
        return t == null ? null : t.toInstant();
    }
}
