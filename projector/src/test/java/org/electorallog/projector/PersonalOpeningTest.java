package org.electorallog.projector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.electorallog.core.Hashes;
import org.electorallog.schemas.BadEventException;
import org.electorallog.schemas.CanonicalStatement;
import org.electorallog.schemas.CommittedForm;
import org.electorallog.schemas.DecodedStatement;
import org.electorallog.schemas.ElectionStatements;
import org.electorallog.schemas.StatementCodec;
import org.electorallog.schemas.avro.Envelope;
import org.electorallog.schemas.avro.PersonalData;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.statement.ContentKeys;
import org.electorallog.statement.DataKeys;
import org.electorallog.statement.PersonalOpenings;
import org.electorallog.statement.PersonalOpenings.Opening;
import org.junit.jupiter.api.Test;

/**
 * The projector's side of the committed form (issue 46, docs/personal-data.md "The projection"):
 * openings that open every commitment give the statement its values; every way they can fail to is
 * refused with its reason; an erased key leaves the commitments only. The key store here is a map
 * (the SQL one is tested in store's KeyStoreTest and, with the projector, in
 * CommittedFormProjectionTest). Openings are sealed as producers seal them since issue 66: under a
 * content key wrapped to the day's public key; and as they were before, directly under a day's AES key.
 */
class PersonalOpeningTest {
    private static final StatementCodec CODEC = StatementCodec.embedded();
    private static final long TIME = 1_796_000_000_000L; // 2026-11-30
    private static final String BOARD = "opening-board";
    private static final String KEY_ID = BOARD + "/2026-11-30";

    private final Keys keys = new Keys();
    private final PersonalOpening opening = new PersonalOpening(keys);
    /** The day's public key: what a producer seals to. */
    private final byte[] key = keys.publicKey(BOARD, LocalDate.of(2026, 11, 30));

    @Test
    void openingsThatOpenEveryCommitmentGiveTheStatementItsValues() throws Exception {
        CommittedForm.Committed c = committed("user-7");
        PersonalOpening.Opened o = open(c, KEY_ID, key, c.openings());
        assertEquals("user-7", o.statement().userId());
        assertEquals("user-7@example.org", o.statement().username());
        assertEquals(4, o.openings().size(), "user_id, username, body.ip, body.country");
        assertTrue(o.statement().hasUser());
    }

    @Test
    void aFormatOneStatementIsLeftAsItIs() throws Exception {
        Statement vote = new ElectionStatements(BOARD, 1).vote("user-1", TIME);
        DecodedStatement st = CODEC.decode(
                CODEC.encode(Envelope.newBuilder().setStatement(vote).build()));
        PersonalOpening.Opened o = opening.open(st);
        assertSame(st, o.statement());
        assertEquals(List.of(), o.openings());
    }

    @Test
    void anOpeningThatDoesNotMatchItsCommitmentIsRefused() {
        CommittedForm.Committed c = committed("user-7");
        List<Opening> forged = new ArrayList<>();
        for (Opening x : c.openings()) {
            forged.add(x.path().equals("user_id") ? new Opening("user_id", x.salt(), "someone-else") : x);
        }
        assertRefused(
                BadEventException.Reason.BAD_OPENING, "user_id does not match", () -> open(c, KEY_ID, key, forged));
    }

    @Test
    void aMissingOrExtraOpeningIsRefused() {
        CommittedForm.Committed c = committed("user-7");
        List<Opening> fewer = c.openings().subList(1, c.openings().size());
        assertRefused(BadEventException.Reason.BAD_OPENING, "no opening for", () -> open(c, KEY_ID, key, fewer));

        List<Opening> more = new ArrayList<>(c.openings());
        more.add(new Opening("body.error", new byte[16], "an error"));
        assertRefused(BadEventException.Reason.BAD_OPENING, "does not commit to", () -> open(c, KEY_ID, key, more));
    }

    @Test
    void openingsSealedForAnotherStatementOrWithAnotherKeyAreRefused() {
        CommittedForm.Committed c = committed("user-7");
        CommittedForm.Committed other = committed("user-8");
        // the other statement's ciphertext: its additional data is the other leaf
        Envelope e = envelope(c, sealed(other, KEY_ID, key, other.openings()));
        assertRefused(BadEventException.Reason.BAD_OPENING, "does not authenticate", () -> decodeAndOpen(e));
        // a key of another day: erasing this statement's day would leave the values readable
        String otherDay = BOARD + "/2026-12-01";
        byte[] otherKey = keys.publicKey(BOARD, LocalDate.of(2026, 12, 1));
        assertRefused(
                BadEventException.Reason.BAD_OPENING,
                "takes key '" + KEY_ID + "'",
                () -> open(c, otherDay, otherKey, c.openings()));
        // a content key wrapped for the other day, moved under this day's key ID: it does not unwrap
        PersonalOpenings.Sealed moved = sealed(c, otherDay, otherKey, c.openings());
        PersonalOpenings.Sealed relabelled =
                new PersonalOpenings.Sealed(KEY_ID, moved.wrappedKey(), moved.nonce(), moved.ciphertext());
        assertRefused(
                BadEventException.Reason.BAD_OPENING, "does not open", () -> decodeAndOpen(envelope(c, relabelled)));
    }

    @Test
    void openingsSealedBeforeIssue66OpenWithTheirDaysOldKeyOnly() throws Exception {
        CommittedForm.Committed c = committed("user-7");
        byte[] leaf = Hashes.leafHash(CanonicalStatement.encode(c.statement()));
        // a day whose key a producer made before V24: no wrapped key, the day's AES key itself
        byte[] aes = keys.legacy(KEY_ID);
        PersonalOpenings.Sealed old = PersonalOpenings.seal(KEY_ID, aes, leaf, c.openings());
        assertEquals("user-7", decodeAndOpen(envelope(c, old)).statement().userId());
        // on a day the log made since, openings with no wrapped key are refused
        String nextDay = BOARD + "/2026-12-01";
        keys.publicKey(BOARD, LocalDate.of(2026, 12, 1));
        CommittedForm.Committed later =
                CommittedForm.commit(new ElectionStatements(BOARD, 3).vote("user-9", TIME + 86_400_000L));
        byte[] laterLeaf = Hashes.leafHash(CanonicalStatement.encode(later.statement()));
        PersonalOpenings.Sealed unwrapped =
                PersonalOpenings.seal(nextDay, PersonalOpenings.newKey(), laterLeaf, later.openings());
        assertRefused(
                BadEventException.Reason.BAD_OPENING,
                "no wrapped content key",
                () -> decodeAndOpen(envelope(later, unwrapped)));
    }

    @Test
    void commitmentsWithoutOpeningsAreRefused() {
        CommittedForm.Committed c = committed("user-7");
        Envelope e = Envelope.newBuilder().setStatement(c.statement()).build();
        assertRefused(BadEventException.Reason.BAD_OPENING, "carries no openings", () -> decodeAndOpen(e));
    }

    @Test
    void aKeyTheStoreNeverHadIsAnUnknownKeyAndAnErasedOneLeavesTheCommitmentsOnly() throws Exception {
        CommittedForm.Committed c = committed("user-7");
        Keys elsewhere = new Keys();
        byte[] foreign = elsewhere.publicKey(BOARD, LocalDate.of(2026, 11, 30));
        keys.forget(KEY_ID);
        assertRefused(
                BadEventException.Reason.UNKNOWN_DATA_KEY,
                "not in the key store",
                () -> open(c, KEY_ID, foreign, c.openings()));

        keys.erase(KEY_ID);
        PersonalOpening.Opened o = open(c, KEY_ID, foreign, c.openings());
        assertNull(o.statement().userId());
        assertNull(o.statement().username());
        assertEquals(List.of(), o.openings());
        assertTrue(o.statement().hasUser(), "the user is committed to, even when it can no longer be read");
    }

    @Test
    void anOpenedValueObeysTheRulesOfTheSameValueInTheClear() {
        CommittedForm.Committed nul = committed("user\u0000nul");
        assertRefused(
                BadEventException.Reason.INVALID, "personal.user_id", () -> open(nul, KEY_ID, key, nul.openings()));
        CommittedForm.Committed tooLong = committed("u".repeat(300));
        assertRefused(
                BadEventException.Reason.INVALID,
                "more than 256",
                () -> open(tooLong, KEY_ID, key, tooLong.openings()));
    }

    private static CommittedForm.Committed committed(String user) {
        return CommittedForm.commit(new ElectionStatements(BOARD, user.hashCode()).vote(user, TIME));
    }

    private PersonalOpening.Opened open(CommittedForm.Committed c, String keyId, byte[] k, List<Opening> openings)
            throws BadEventException {
        return decodeAndOpen(envelope(c, sealed(c, keyId, k, openings)));
    }

    private PersonalOpening.Opened decodeAndOpen(Envelope e) throws BadEventException {
        DecodedStatement st = CODEC.decode(CODEC.encode(e));
        return opening.open(st);
    }

    /** {@code openings} sealed as a producer seals them: under a fresh content key wrapped to {@code publicKey}. */
    static PersonalOpenings.Sealed sealed(
            CommittedForm.Committed c, String keyId, byte[] publicKey, List<Opening> openings) {
        byte[] leaf = Hashes.leafHash(CanonicalStatement.encode(c.statement()));
        byte[] ck = ContentKeys.newContentKey();
        return PersonalOpenings.seal(keyId, ContentKeys.wrap(keyId, publicKey, ck), ck, leaf, openings);
    }

    /** The envelope of a committed statement carrying {@code s} as its openings. */
    static Envelope envelope(CommittedForm.Committed c, PersonalOpenings.Sealed s) {
        return Envelope.newBuilder()
                .setStatement(c.statement())
                .setPersonal(PersonalData.newBuilder()
                        .setKeyId(s.keyId())
                        .setWrappedKey(ByteBuffer.wrap(s.wrappedKey()))
                        .setNonce(ByteBuffer.wrap(s.nonce()))
                        .setCiphertext(ByteBuffer.wrap(s.ciphertext()))
                        .build())
                .build();
    }

    private static void assertRefused(
            BadEventException.Reason reason, String says, org.junit.jupiter.api.function.Executable e) {
        BadEventException x = assertThrows(BadEventException.class, e);
        assertEquals(reason, x.reason(), x.getMessage());
        assertTrue(x.getMessage().contains(says), x.getMessage());
    }

    /** A key store in memory: keys made (a key pair, and a day's AES key before issue 66), forgotten (never made) or erased. */
    private static final class Keys implements DataKeys {
        private final Map<String, ContentKeys.KeyPair> made = new HashMap<>();
        private final Map<String, byte[]> legacy = new HashMap<>();
        private final Map<String, Boolean> erased = new HashMap<>();

        /** The public half of the day's key, made when missing (what the log's key maker does). */
        byte[] publicKey(String board, LocalDate day) {
            return made.computeIfAbsent(DataKeys.id(board, day), x -> ContentKeys.newKeyPair())
                    .publicKey();
        }

        /** The AES key a producer made for {@code keyId} before issue 66. */
        byte[] legacy(String keyId) {
            return legacy.computeIfAbsent(keyId, x -> PersonalOpenings.newKey());
        }

        @Override
        public Lookup find(String keyId) {
            if (erased.containsKey(keyId)) {
                return new Lookup(State.ERASED, null);
            }
            ContentKeys.KeyPair k = made.get(keyId);
            byte[] old = legacy.get(keyId);
            return k == null && old == null
                    ? new Lookup(State.UNKNOWN, null)
                    : new Lookup(State.PRESENT, new DataKey(keyId, k == null ? null : k.privateKey(), old));
        }

        void forget(String keyId) {
            made.remove(keyId);
        }

        void erase(String keyId) {
            made.remove(keyId);
            erased.put(keyId, true);
        }
    }
}
