package org.electorallog.store;

/** One row of the {@code records} table (V1), as a batch writes it. Times are epoch milliseconds; senderId is a key of {@code senders}. */
@SuppressWarnings("ArrayRecordComponent") // a row written once, never compared as a value
public record RecordRow(
        short boardId,
        long id,
        long createdMillis,
        long statementMillis,
        short kind,
        int senderId,
        IndexedFields fields,
        String deliveryId,
        byte[] statement,
        int schemaId,
        int partition,
        long offset,
        byte[] senderSignature,
        byte[] systemSignature,
        String eventType,
        String error) {
    /** A row without body fields (event_type, error: V11). */
    public RecordRow(
            short boardId,
            long id,
            long createdMillis,
            long statementMillis,
            short kind,
            int senderId,
            IndexedFields fields,
            String deliveryId,
            byte[] statement,
            int schemaId,
            int partition,
            long offset,
            byte[] senderSignature,
            byte[] systemSignature) {
        this(
                boardId,
                id,
                createdMillis,
                statementMillis,
                kind,
                senderId,
                fields,
                deliveryId,
                statement,
                schemaId,
                partition,
                offset,
                senderSignature,
                systemSignature,
                null,
                null);
    }
}
