package org.electorallog.producer;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.electorallog.statement.ContentKeys;
import org.electorallog.statement.DataKeys;
import org.electorallog.statement.PersonalOpenings;
import org.electorallog.statement.PersonalOpenings.Opening;
import org.electorallog.statement.SealingKeys;

/**
 * Seals a statement's openings for the topic (docs/personal-data.md "The keys"): one random content
 * key per data key (board and day) for the life of this producer, wrapped once to the day's public
 * key ({@link ContentKeys}) and sent beside every ciphertext it encrypts. The content keys stay in
 * memory; they open only what this producer sent. Also used by tools that encode events as the
 * producer would (perf).
 */
public final class OpeningSealer {
    /** A day's content key and its wrapped form. */
    @SuppressWarnings("ArrayRecordComponent") // keys handed to the cipher, never compared as a value
    private record DayKey(String id, byte[] contentKey, byte[] wrapped) {}

    private final SealingKeys keys;
    private final Map<String, DayKey> days = new ConcurrentHashMap<>();

    public OpeningSealer(SealingKeys keys) {
        this.keys = keys;
    }

    /** {@code openings} of the statement with {@code leafHash}, on {@code board} at {@code statementMillis}, sealed. */
    public PersonalOpenings.Sealed seal(String board, long statementMillis, byte[] leafHash, List<Opening> openings) {
        String id = DataKeys.id(board, DataKeys.dayOf(statementMillis));
        DayKey k = days.computeIfAbsent(id, unused -> {
            SealingKeys.SealingKey pk = keys.forDay(board, DataKeys.dayOf(statementMillis));
            byte[] ck = ContentKeys.newContentKey();
            return new DayKey(pk.id(), ck, ContentKeys.wrap(pk.id(), pk.publicKey(), ck));
        });
        return PersonalOpenings.seal(k.id(), k.wrapped(), k.contentKey(), leafHash, openings);
    }
}
