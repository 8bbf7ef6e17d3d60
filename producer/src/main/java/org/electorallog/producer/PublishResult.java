package org.electorallog.producer;

import java.util.Base64;

/**
 * A statement Kafka has acknowledged: where it is (board, partition, offset) and its receipt. The
 * leaf hash, RFC 6962 section 2.1 SHA-256(0x00 || canonical statement), is what the log's tree
 * commits to: a voter who keeps it (with the board) can ask for an inclusion proof of their ballot
 * ({@code GET /boards/{board}/proof?leaf_hash=}) and check it against a signed checkpoint.
 */
@SuppressWarnings("ArrayRecordComponent") // a result handed back once, never compared as a value
public record PublishResult(String board, String deliveryId, int partition, long offset, byte[] leafHash) {
    /** The leaf hash in standard base64, as the query API writes hashes. */
    public String leafHashBase64() {
        return Base64.getEncoder().encodeToString(leafHash);
    }
}
