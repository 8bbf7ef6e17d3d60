package org.electorallog.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.sql.DataSource;

/**
 * Bytes per record of the projection: every table of the projection with its indexes and TOAST
 * ({@code pg_total_relation_size}), divided by the number of records. Brief section 5 budget: at
 * most 1,100 bytes per record with every index and tile. {@code recordsParts} splits the records
 * table into its heap, its TOAST and each of its indexes, so a change to the row or an index shows;
 * each is summed over the table's partitions (V15), an index under its name without the partition's
 * _<board>_<ordinal> (or _scratch).
 */
public record StorageReport(
        long records, Map<String, Long> bytesByRelation, Map<String, Long> recordsParts, long totalBytes) {
    static final List<String> RELATIONS = List.of(
            "records",
            "deliveries",
            "record_partitions",
            "tiles",
            "counters",
            "hourly_counts",
            "sender_grants",
            "checkpoints",
            "board_state",
            "boards",
            "partition_offsets",
            "writer_schemas");

    public double bytesPerRecord() {
        return records == 0 ? 0 : (double) totalBytes / records;
    }

    /** Measures after {@code VACUUM ANALYZE} of the projection tables, so dead tuples of updated rows do not count. */
    public static StorageReport measure(DataSource ds) throws SQLException {
        Map<String, Long> bytes = new LinkedHashMap<>();
        Map<String, Long> parts = new LinkedHashMap<>();
        long total = 0;
        long records;
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(true);
            for (String r : RELATIONS) {
                try (Statement st = c.createStatement()) {
                    st.execute("VACUUM ANALYZE " + r);
                }
            }
            try (Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT count(*) FROM records")) {
                records = rs.next() ? rs.getLong(1) : 0;
            }
            // a partitioned table has no storage of its own: its size is its partitions' (V15)
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT coalesce((SELECT sum(pg_total_relation_size(relid)) "
                            + "FROM pg_partition_tree(?::regclass) WHERE isleaf), pg_total_relation_size(?::regclass))::bigint")) {
                for (String r : RELATIONS) {
                    ps.setString(1, r);
                    ps.setString(2, r);
                    try (ResultSet rs = ps.executeQuery()) {
                        long n = rs.next() ? rs.getLong(1) : 0;
                        bytes.put(r, n);
                        total += n;
                    }
                }
            }
            try (ResultSet rs = c.createStatement().executeQuery("""
                    SELECT 'heap', coalesce(sum(pg_relation_size(t.relid)), 0)::bigint
                      FROM pg_partition_tree('records') t WHERE t.isleaf
                    UNION ALL SELECT 'toast', coalesce(sum(pg_total_relation_size(nullif(c.reltoastrelid, 0))), 0)::bigint
                      FROM pg_partition_tree('records') t JOIN pg_class c ON c.oid = t.relid WHERE t.isleaf
                    UNION ALL (SELECT regexp_replace(c.relname, '_([0-9]+_[0-9]+|scratch)$', ''), sum(pg_relation_size(c.oid))::bigint
                      FROM pg_partition_tree('records') t JOIN pg_index x ON x.indrelid = t.relid
                      JOIN pg_class c ON c.oid = x.indexrelid
                      WHERE t.isleaf GROUP BY 1 ORDER BY 1)""")) {
                while (rs.next()) {
                    parts.put(rs.getString(1), rs.getLong(2));
                }
            }
        }
        return new StorageReport(records, bytes, parts, total);
    }

    /** A one-object JSON rendering, for result files. */
    public String toJson() {
        StringBuilder sb = new StringBuilder("{\"records\":")
                .append(records)
                .append(",\"total_bytes\":")
                .append(totalBytes)
                .append(",\"bytes_per_record\":")
                .append(String.format(Locale.ROOT, "%.1f", bytesPerRecord()))
                .append(",\"relations\":{");
        int i = 0;
        for (Map.Entry<String, Long> e : bytesByRelation.entrySet()) {
            sb.append(i++ == 0 ? "" : ",")
                    .append('"')
                    .append(e.getKey())
                    .append("\":")
                    .append(e.getValue());
        }
        sb.append("},\"records_parts\":{");
        i = 0;
        for (Map.Entry<String, Long> e : recordsParts.entrySet()) {
            sb.append(i++ == 0 ? "" : ",")
                    .append('"')
                    .append(e.getKey())
                    .append("\":")
                    .append(e.getValue());
        }
        return sb.append("}}").toString();
    }
}
