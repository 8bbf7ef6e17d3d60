package org.electorallog.store;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.SQLException;
import org.postgresql.PGConnection;

/**
 * The framing of PostgreSQL's binary COPY format ({@code COPY ... FROM STDIN (FORMAT binary)}, the
 * "Binary Format" section of the COPY reference page), shared by the writers of records
 * ({@link RecordInserter}) and of their delivery keys ({@link Deliveries}). Each row between header
 * and trailer is a 16-bit field count, then each field as a 32-bit length (-1 for NULL) and its bytes.
 */
final class BinaryCopy {
    private BinaryCopy() {}

    /** The header's size: the 11-byte signature, the 32-bit flags and the 32-bit extension length. */
    static final int HEADER_BYTES = 11 + 4 + 4;
    /** The trailer's size: a 16-bit field count. */
    static final int TRAILER_BYTES = 2;

    /** The 11-byte signature, the 32-bit flags field (0: no OIDs) and the header extension length (0). */
    static void header(ByteBuffer b) {
        b.put(new byte[] {'P', 'G', 'C', 'O', 'P', 'Y', '\n', (byte) 0xFF, '\r', '\n', 0});
        b.putInt(0);
        b.putInt(0);
    }

    /** The file trailer: a field count of -1. */
    static void trailer(ByteBuffer b) {
        b.putShort((short) -1);
    }

    /** Sends {@code data} to {@code copySql}; a failure names {@code what} (for example "5000 records"). */
    static void copyIn(Connection c, String copySql, byte[] data, String what) throws SQLException {
        try {
            c.unwrap(PGConnection.class).getCopyAPI().copyIn(copySql, new ByteArrayInputStream(data));
        } catch (IOException e) {
            throw new SQLException("COPY of " + what + " failed: " + e.getMessage(), e);
        }
    }
}
