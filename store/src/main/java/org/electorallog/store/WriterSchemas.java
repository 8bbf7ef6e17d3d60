package org.electorallog.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/** Table {@code writer_schemas} (V1): every Avro writer schema a stored statement was decoded with, kept for decoding without a registry. */
public final class WriterSchemas {
    private WriterSchemas() {}

    /** Records a writer schema once (a known ID is left as it is). */
    public static void record(Connection c, int schemaId, byte[] fingerprint, String schemaJson) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("INSERT INTO writer_schemas (schema_id, fingerprint, schema_json) "
                        + "VALUES (?, ?, ?) ON CONFLICT (schema_id) DO NOTHING")) {
            ps.setInt(1, schemaId);
            ps.setBytes(2, fingerprint);
            ps.setString(3, schemaJson);
            ps.executeUpdate();
        }
    }
}
