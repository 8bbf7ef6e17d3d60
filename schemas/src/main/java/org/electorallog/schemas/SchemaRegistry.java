package org.electorallog.schemas;

import org.apache.avro.Schema;

/**
 * Where schema IDs of the Confluent wire format come from. The embedded implementation reads a
 * fixed, append-only manifest shipped in this module, so the default setup needs no registry server.
 */
public interface SchemaRegistry {
    /** The ID of {@code schema} under {@code subject}; an unknown schema is an error, not a new ID. */
    int idOf(String subject, Schema schema);

    /** The writer schema with this ID. */
    Schema byId(int id) throws UnknownSchemaException;

    /** No schema is known under an ID (the event cannot be decoded, so it is dead-lettered). */
    final class UnknownSchemaException extends Exception {
        private final int id;

        public UnknownSchemaException(int id, String detail) {
            super("unknown schema ID " + id + (detail == null ? "" : ": " + detail));
            this.id = id;
        }

        public int id() {
            return id;
        }
    }
}
