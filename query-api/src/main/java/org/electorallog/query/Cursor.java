package org.electorallog.query;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Opaque, tamper-evident keyset cursors: the last ID of a page, the sort key of that row for sorts
 * by a column, and the query it belongs to (a hash of its parameters), with an HMAC-SHA-256 tag, in
 * URL-safe base64. An edited cursor, or one
 * replayed on another query, is refused with 400. All replicas must share the key to accept each
 * other's cursors.
 */
final class Cursor {
    private static final int TAG = 16;
    private final byte[] key;

    Cursor(byte[] key) {
        if (key.length < 16) {
            throw new IllegalArgumentException("the cursor key must be at least 16 bytes");
        }
        this.key = key.clone();
    }

    /** A keyset position: the last ID of a page and, for sorts by a column, that row's sort key (else null). */
    record Position(long lastId, String key) {}

    String encode(String query, long lastId) {
        return encode(query, new Position(lastId, null));
    }

    String encode(String query, Position position) {
        byte[] key = position.key() == null ? new byte[0] : position.key().getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(8 + 8 + 1 + key.length);
        b.putLong(position.lastId())
                .put(queryHash(query))
                .put((byte) (position.key() == null ? 0 : 1))
                .put(key);
        byte[] body = b.array();
        byte[] tag = Arrays.copyOf(mac(body), TAG);
        return Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(ByteBuffer.allocate(body.length + TAG)
                        .put(body)
                        .put(tag)
                        .array());
    }

    /** The last ID a cursor carries; 400 when it was edited or belongs to another query. */
    long decode(String query, String cursor) {
        return position(query, cursor).lastId();
    }

    /** The position a cursor carries; 400 when it was edited or belongs to another query. */
    Position position(String query, String cursor) {
        byte[] raw;
        try {
            raw = Base64.getUrlDecoder().decode(cursor);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("the cursor is not one this API issued (bad encoding)");
        }
        if (raw.length < 17 + TAG || raw.length > 17 + 1024 + TAG) {
            throw ApiException.badRequest("the cursor is not one this API issued (bad length)");
        }
        byte[] body = Arrays.copyOf(raw, raw.length - TAG);
        byte[] tag = Arrays.copyOfRange(raw, raw.length - TAG, raw.length);
        if (!MessageDigest.isEqual(tag, Arrays.copyOf(mac(body), TAG))) {
            throw ApiException.badRequest(
                    "the cursor was altered or issued by another key; start again without a cursor");
        }
        if (!Arrays.equals(Arrays.copyOfRange(body, 8, 16), queryHash(query))) {
            throw ApiException.badRequest("the cursor belongs to another query; keep the same filters when paging");
        }
        String key = body[16] == 0 ? null : new String(body, 17, body.length - 17, StandardCharsets.UTF_8);
        return new Position(ByteBuffer.wrap(body, 0, 8).getLong(), key);
    }

    private static byte[] queryHash(String query) {
        try {
            return Arrays.copyOf(
                    MessageDigest.getInstance("SHA-256").digest(query.getBytes(StandardCharsets.UTF_8)), 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private byte[] mac(byte[] body) {
        try {
            Mac m = Mac.getInstance("HmacSHA256");
            m.init(new SecretKeySpec(key, "HmacSHA256"));
            return m.doFinal(body);
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException(e);
        }
    }
}
