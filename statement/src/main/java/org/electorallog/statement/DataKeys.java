package org.electorallog.statement;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;

/**
 * The key store of the committed form as the projector sees it (docs/personal-data.md "The keys"):
 * one data key per board and UTC day, made by the log ({@code KeyMaker} in store), read by the
 * projector, destroyed by erasure. A key that was erased stays known as erased, so that a replay
 * projects its statements with their commitments only instead of refusing them. A producer sees
 * only public halves ({@link SealingKeys}). Implementation: store {@code SqlDataKeys} (a
 * PostgreSQL schema of its own, secrets wrapped under {@link KeyEncryptionKeys}).
 */
public interface DataKeys {
    /**
     * A data key: its name and its secrets. {@code privateKey} is the day's X25519 private half, to
     * which producers wrap their content keys ({@link ContentKeys}; null for a key made before issue
     * 66 that the projector has not converted yet); {@code legacyKey} is the day's AES-256 key a
     * producer made before issue 66 (store V18), which opens the openings sealed then, with no
     * wrapped key; null for a key made since.
     */
    @SuppressWarnings("ArrayRecordComponent") // keys handed to the cipher, never compared as a value
    record DataKey(String id, byte[] privateKey, byte[] legacyKey) {
        public DataKey {
            if (privateKey == null && legacyKey == null) {
                throw new IllegalArgumentException("a data key has a secret");
            }
            if (privateKey != null && privateKey.length != ContentKeys.X25519_BYTES) {
                throw new IllegalArgumentException("an X25519 private key is 32 bytes, not " + privateKey.length);
            }
            if (legacyKey != null && legacyKey.length != PersonalOpenings.KEY_BYTES) {
                throw new IllegalArgumentException("an AES data key is 32 bytes, not " + legacyKey.length);
            }
        }

        @Override
        public String toString() {
            return "DataKey[" + id + "]"; // never a secret
        }
    }

    /** What the store knows of a key ID. */
    enum State {
        /** the key is there */
        PRESENT,
        /** the key was erased: its statements' openings can never be read again */
        ERASED,
        /** no key of that ID was ever made */
        UNKNOWN
    }

    /** A key ID looked up: its state, and the key when {@link State#PRESENT}. */
    record Lookup(State state, DataKey key) {}

    /** The key named {@code keyId}, or that it was erased or never made. */
    Lookup find(String keyId);

    /** The ID of the key of {@code board} and {@code day}: {@code <board>/<yyyy-mm-dd>}. */
    static String id(String board, LocalDate day) {
        return board + "/" + day;
    }

    /** The UTC day of a statement time in milliseconds since the epoch. */
    static LocalDate dayOf(long statementMillis) {
        return LocalDate.ofInstant(Instant.ofEpochMilli(statementMillis), ZoneOffset.UTC);
    }
}
