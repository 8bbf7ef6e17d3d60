package org.electorallog.schemas;

import java.nio.ByteBuffer;

/**
 * The Confluent Schema Registry wire format: magic byte 0, the schema ID as a 4-byte big-endian
 * integer, then the Avro binary encoding of the datum.
 */
public final class WireFormat {
    public static final byte MAGIC = 0;
    public static final int HEADER_SIZE = 5;

    /**
     * The Kafka header naming the writer schema by content (issue 67, decision 140): the SHA-256 of
     * its parsing canonical form in hex ({@link EmbeddedSchemaRegistry#fingerprint}), which no
     * registry numbers differently. A projector checks the schema the ID resolves to against it,
     * so an event framed with another registry's ID is never read with the wrong schema.
     */
    public static final String WRITER_SCHEMA_HEADER = "electoral-log.writer-schema";

    private WireFormat() {}

    /** Prefixes Avro bytes with the header for {@code schemaId}. */
    public static byte[] frame(int schemaId, byte[] avro) {
        ByteBuffer b = ByteBuffer.allocate(HEADER_SIZE + avro.length);
        b.put(MAGIC).putInt(schemaId).put(avro);
        return b.array();
    }

    /** The schema ID of a framed message; a message too short or without the magic byte is refused. */
    public static int schemaId(byte[] message) throws BadEventException {
        if (message == null || message.length < HEADER_SIZE) {
            throw new BadEventException(
                    BadEventException.Reason.UNDECODABLE,
                    "message of " + (message == null ? 0 : message.length)
                            + " bytes is shorter than the 5-byte wire-format header");
        }
        if (message[0] != MAGIC) {
            throw new BadEventException(
                    BadEventException.Reason.NO_SCHEMA,
                    "message does not start with the wire-format magic byte 0 (found " + message[0] + ")");
        }
        return ByteBuffer.wrap(message, 1, 4).getInt();
    }
}
