package org.electorallog.statement;

import java.time.LocalDate;

/**
 * The key store as a producer sees it (docs/personal-data.md "The keys"): the public half of a
 * board's key of a UTC day, which the log makes on request. A producer can seal openings to it and
 * open nothing. Implementation: store {@code SqlSealingKeys}.
 */
public interface SealingKeys {
    /** The public half of a day's data key and the key's ID. */
    @SuppressWarnings("ArrayRecordComponent") // bytes handed to HPKE, never compared as a value
    record SealingKey(String id, byte[] publicKey) {
        public SealingKey {
            if (publicKey.length != ContentKeys.X25519_BYTES) {
                throw new IllegalArgumentException("an X25519 public key is 32 bytes, not " + publicKey.length);
            }
            publicKey = publicKey.clone();
        }

        @Override
        public byte[] publicKey() {
            return publicKey.clone();
        }
    }

    /**
     * The public key of {@code board}'s statements made on {@code day} (UTC), asking the log to make
     * it when it does not exist yet; an {@link IllegalStateException} saying why when the key was
     * erased, this producer may not write the board, or the log did not make it in time.
     */
    SealingKey forDay(String board, LocalDate day);
}
