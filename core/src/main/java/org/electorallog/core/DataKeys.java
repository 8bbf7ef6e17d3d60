package org.electorallog.core;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;

/**
 * The key store of the committed form (docs/personal-data.md "The openings, and the keys that make
 * them erasable"): one AES-256 data key per board and UTC day, created by the producer side when it
 * first needs it, read by the projector, destroyed by erasure. A key that was erased stays known as
 * erased, so that a replay projects its statements with their commitments only instead of refusing
 * them. Implementations: store {@code SqlDataKeys} (a PostgreSQL schema of its own); a KMS would
 * keep wrapped keys in the same shape.
 */
public interface DataKeys {
    /** A data key and its name. */
    @SuppressWarnings("ArrayRecordComponent") // a key handed to the cipher, never compared as a value
    record DataKey(String id, byte[] key) {
        public DataKey {
            if (key.length != PersonalOpenings.KEY_BYTES) {
                throw new IllegalArgumentException("a data key is " + PersonalOpenings.KEY_BYTES + " bytes");
            }
        }

        @Override
        public String toString() {
            return "DataKey[" + id + "]"; // never the key
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

    /** The key of {@code board}'s statements made on {@code day} (UTC), created when it does not exist yet. */
    DataKey forDay(String board, LocalDate day);

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
