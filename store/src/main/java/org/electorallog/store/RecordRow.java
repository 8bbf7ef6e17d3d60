package org.electorallog.store;

import org.electorallog.statement.Entry;

/**
 * One row of the {@code records} table (V1), as a batch writes it: what the batch sets (the board, the
 * record's ID, its created time and its sender's key in {@code senders}) and what the statement holds
 * ({@link RecordContent}). Times are epoch milliseconds.
 */
public record RecordRow(short boardId, long id, long createdMillis, int senderId, RecordContent content) {
    /**
     * A row and its content at once (tests, perf); the content's fields are read as {@code
     * content().x()}. Its statement bytes are stored as they are given, not in the stored form.
     */
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
            byte[] systemSignature,
            String eventType,
            String error) {
        this(
                boardId,
                id,
                createdMillis,
                senderId,
                new RecordContent(
                        statementMillis,
                        Entry.of(statement, kind),
                        fields,
                        null,
                        deliveryId,
                        schemaId,
                        partition,
                        offset,
                        senderSignature,
                        systemSignature,
                        eventType,
                        error,
                        null));
    }

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
