package org.electorallog.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.electorallog.statement.HeadsBoard;

/**
 * The producers' own logins to the key store (store V24, docs/security.md "Logins"): each producer
 * logs in as a member of {@code electoral_log_keys} and may ask for the public keys of the boards
 * granted to its login ({@code personal_keys.producer_boards}), nothing else. Run on the owner's
 * login, in the caller's transaction.
 */
public final class ProducerLogins {
    /** The login names this accepts: PostgreSQL identifiers that need no quoting. */
    private static final Pattern LOGIN = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

    /** The group every producer login belongs to (V18, V24). */
    public static final String GROUP = "electoral_log_keys";

    /** One login's grant of one board. */
    public record Grant(String login, String board) {}

    private ProducerLogins() {}

    /**
     * Lets {@code login} seal openings for {@code board}: creates the login when it does not exist
     * (with {@code password}, or none when null: then pg_hba.conf decides how it logs in), makes it a
     * member of {@value #GROUP}, and grants the board. Returns whether the login was created.
     */
    public static boolean allow(Connection c, String login, String password, String board) throws SQLException {
        check(login);
        if (!board.matches("[a-z0-9][a-z0-9._-]{0,63}")) {
            throw new IllegalArgumentException("'" + board + "' is not a board name");
        }
        if (HeadsBoard.NAME.equals(board)) {
            throw new IllegalArgumentException("board " + board + " is the log's own: no producer writes it");
        }
        boolean created = false;
        if (!exists(c, login)) {
            try (Statement st = c.createStatement()) {
                st.execute("CREATE ROLE " + login + " LOGIN");
            }
            created = true;
        }
        if (password != null) {
            try (PreparedStatement ps =
                            c.prepareStatement("SELECT format('ALTER ROLE %I PASSWORD %L', ?::text, ?::text)");
                    Statement st = c.createStatement()) {
                ps.setString(1, login);
                ps.setString(2, password);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        throw new SQLException("format() returned no row");
                    }
                    st.execute(rs.getString(1));
                }
            }
        }
        try (Statement st = c.createStatement()) {
            st.execute("GRANT " + GROUP + " TO " + login); // the group's one privilege: EXECUTE on sealing_key
        }
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO personal_keys.producer_boards (login, board) VALUES (?, ?) ON CONFLICT DO NOTHING")) {
            ps.setString(1, login);
            ps.setString(2, board);
            int unused = ps.executeUpdate();
        }
        return created;
    }

    /** Takes {@code board} from {@code login}; returns whether it had it. */
    public static boolean deny(Connection c, String login, String board) throws SQLException {
        check(login);
        try (PreparedStatement ps =
                c.prepareStatement("DELETE FROM personal_keys.producer_boards WHERE login = ? AND board = ?")) {
            ps.setString(1, login);
            ps.setString(2, board);
            return ps.executeUpdate() == 1;
        }
    }

    /** Whether the key store of V24 exists (its function producers call). */
    public static boolean present(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                        "SELECT to_regprocedure('personal_keys.sealing_key(text, date)') IS NOT NULL");
                ResultSet rs = ps.executeQuery()) {
            return rs.next() && rs.getBoolean(1);
        }
    }

    /** Every login's boards, by login then board. */
    public static List<Grant> all(Connection c) throws SQLException {
        List<Grant> out = new ArrayList<>();
        try (PreparedStatement ps =
                        c.prepareStatement("SELECT login, board FROM personal_keys.producer_boards ORDER BY 1, 2");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.add(new Grant(rs.getString(1), rs.getString(2)));
            }
        }
        return out;
    }

    private static boolean exists(Connection c, String login) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM pg_roles WHERE rolname = ?")) {
            ps.setString(1, login);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    private static void check(String login) {
        if (!LOGIN.matcher(login).matches()) {
            throw new IllegalArgumentException(
                    "'" + login + "' is not a login name this command makes ([a-z_][a-z0-9_]{0,62})");
        }
        if (login.startsWith("pg_") || login.startsWith("electoral_log_")) {
            throw new IllegalArgumentException(
                    "'" + login + "' is a reserved role name: give the producer's own login");
        }
    }
}
