package org.electorallog.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.electorallog.core.SignatureBundle;

/**
 * The statement signatures of a range of records, as the signature bundles beside the entry
 * bundles serve them (core {@link SignatureBundle}, {@code GET /boards/{board}/signatures/<N>}):
 * what a verifier outside the operator checks each entry's signatures with (issue 42 item 3).
 */
public final class RecordSignatures {
    private RecordSignatures() {}

    /**
     * The signatures of records [from, to) in ID order: one primary-key range scan of
     * {@code records} (V15), the same rows as the entry bundle of that range.
     */
    public static List<SignatureBundle.Signatures> of(Connection c, short boardId, long from, long to)
            throws SQLException {
        List<SignatureBundle.Signatures> out = new ArrayList<>((int) Math.min(to - from, 256));
        try (PreparedStatement ps = c.prepareStatement("SELECT created, sender_signature, system_signature "
                + "FROM records WHERE board_id = ? AND id >= ? AND id < ? ORDER BY id")) {
            ps.setShort(1, boardId);
            ps.setLong(2, from);
            ps.setLong(3, to);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new SignatureBundle.Signatures(
                            rs.getTimestamp(1).toInstant().toEpochMilli(), rs.getBytes(2), rs.getBytes(3)));
                }
            }
        }
        return out;
    }
}
