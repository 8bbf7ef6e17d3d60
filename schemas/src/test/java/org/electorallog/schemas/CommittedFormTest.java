package org.electorallog.schemas;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.electorallog.schemas.CommittedForm.Committed;
import org.electorallog.schemas.avro.CastVote;
import org.electorallog.schemas.avro.CastVoteError;
import org.electorallog.schemas.avro.IdentityProviderUserEvent;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.schemas.avro.StatementKind;
import org.electorallog.statement.CanonicalStatementReader;
import org.electorallog.statement.PersonalCommitment;
import org.electorallog.statement.PersonalOpenings.Opening;
import org.junit.jupiter.api.Test;

/** Statement format 2 (docs/personal-data.md): what {@link CommittedForm} makes and what the rules refuse. */
class CommittedFormTest {
    private final ElectionStatements statements = new ElectionStatements("committed-board", 7);

    @Test
    void everyPersonalValueBecomesACommitmentItsOpeningOpens() {
        Statement vote = statements.vote("user-42", 1_800_000_000_000L);
        Committed c = CommittedForm.commit(vote);
        Statement s = c.statement();

        assertEquals(2, s.getFormatVersion());
        assertNull(s.getUserId());
        assertNull(s.getUsername());
        assertNull(((CastVote) s.getBody()).getIp());
        assertNull(((CastVote) s.getBody()).getCountry());
        assertEquals("user-42", vote.getUserId().toString(), "the statement given is not changed");
        assertEquals(vote.getBallotId().toString(), s.getBallotId().toString(), "ballot IDs stay in the clear");
        assertEquals(vote.getAreaId().toString(), s.getAreaId().toString(), "area IDs stay in the clear");

        assertEquals(
                List.of("body.country", "body.ip", "user_id", "username"),
                c.openings().stream().map(Opening::path).toList());
        assertEquals(4, s.getCommitments().size());
        for (Opening o : c.openings()) {
            byte[] commitment = bytes(s.getCommitments().get(o.path()));
            assertTrue(PersonalCommitment.opens(
                    commitment, "committed-board", s.getDeliveryId().toString(), o.path(), o.salt(), o.value()));
        }
        assertEquals(
                Map.of(
                        "body.country",
                        "ES",
                        "body.ip",
                        "10.0.0.1",
                        "user_id",
                        "user-42",
                        "username",
                        "user-42@example.org"),
                toMap(c.openings()));
        assertTrue(
                StatementRules.check(s).isEmpty(),
                () -> StatementRules.check(s).orElseThrow().message());

        String canonical = new String(CanonicalStatement.encode(s), StandardCharsets.ISO_8859_1);
        for (String value : List.of("user-42", "10.0.0.1", "example.org")) {
            assertFalse(canonical.contains(value), "the canonical bytes hold no personal value: " + value);
        }
        assertTrue(canonical.contains("format_version") && canonical.contains("commitments"));
        assertEquals(
                2, CanonicalStatementReader.formatVersion(CanonicalStatement.encode(s)), "what the API serves anyone");
        assertEquals(1, CanonicalStatementReader.formatVersion(CanonicalStatement.encode(vote)), "format 1: left out");
        assertFalse(CanonicalStatementReader.holdsPersonalValue(CanonicalStatement.encode(s)), "anyone may read it");
        assertTrue(CanonicalStatementReader.holdsPersonalValue(CanonicalStatement.encode(vote)));
    }

    /** What the API and the publisher serve to anyone: entries without a personal value in the clear. */
    @Test
    void anEntryHoldsAPersonalValueWhenAnyPersonalFieldIsInTheClear() {
        Statement seal = ElectionStatements.everyKind("b").stream()
                .filter(k -> k.getKind() == org.electorallog.schemas.avro.StatementKind.BOARD_SEALED)
                .findFirst()
                .orElseThrow();
        Statement bare =
                Statement.newBuilder(seal).setUserId(null).setUsername(null).build();
        assertFalse(CanonicalStatementReader.holdsPersonalValue(CanonicalStatement.encode(bare)), "a seal in format 1");
        assertTrue(CanonicalStatementReader.holdsPersonalValue(CanonicalStatement.encode(
                Statement.newBuilder(bare).setUsername("x").build())));
        Statement login = ElectionStatements.everyKind("b").stream()
                .filter(k -> k.getKind() == org.electorallog.schemas.avro.StatementKind.IDP_USER_EVENT)
                .findFirst()
                .orElseThrow();
        IdentityProviderUserEvent errorOnly = IdentityProviderUserEvent.newBuilder()
                .setEventType("LOGIN_ERROR")
                .setError("invalid_user_credentials")
                .build();
        Statement onlyInTheBody = Statement.newBuilder(login)
                .setUserId(null)
                .setUsername(null)
                .setBody(errorOnly)
                .build();
        assertTrue(CanonicalStatementReader.holdsPersonalValue(CanonicalStatement.encode(onlyInTheBody)), "body.error");
        Statement noError = Statement.newBuilder(onlyInTheBody)
                .setBody(IdentityProviderUserEvent.newBuilder()
                        .setEventType("LOGOUT")
                        .build())
                .build();
        assertFalse(CanonicalStatementReader.holdsPersonalValue(CanonicalStatement.encode(noError)));
        assertTrue(CanonicalStatementReader.anyHoldsPersonalValue(
                List.of(CanonicalStatement.encode(bare), CanonicalStatement.encode(login))));
    }

    @Test
    void twoCommitmentsOfOneValueDiffer() {
        Statement vote = statements.vote("user-42", 1_800_000_000_000L);
        byte[] a = bytes(CommittedForm.commit(vote).statement().getCommitments().get("user_id"));
        byte[] b = bytes(CommittedForm.commit(vote).statement().getCommitments().get("user_id"));
        assertFalse(java.util.Arrays.equals(a, b), "a fresh salt each time");
    }

    @Test
    void aStatementWithoutPersonalValuesHasAnEmptyMapAndAFormat1StatementKeepsItsBytes() {
        Statement published = ElectionStatements.everyKind("committed-board").stream()
                .filter(s -> s.getKind() == org.electorallog.schemas.avro.StatementKind.ELECTION_PUBLISHED)
                .findFirst()
                .orElseThrow();
        published.setUserId(null);
        published.setUsername(null);
        byte[] before = CanonicalStatement.encode(published);
        Committed c = CommittedForm.commit(published);
        assertArrayEquals(before, CanonicalStatement.encode(published), "format 1 bytes are not changed");
        assertTrue(StatementRules.check(c.statement()).isEmpty());
        assertEquals(Map.of(), c.statement().getCommitments());
        assertEquals(List.of(), c.openings());
        assertThrows(IllegalArgumentException.class, () -> CommittedForm.commit(c.statement()), "committed twice");
    }

    @Test
    void theRulesRefuseEveryBrokenFormat() {
        Statement vote = statements.vote("user-42", 1_800_000_000_000L);
        Statement committed = CommittedForm.commit(vote).statement();

        Statement commitmentsInFormat1 = copy(vote);
        commitmentsInFormat1.setCommitments(new HashMap<>(committed.getCommitments()));
        assertEquals("commitments", violation(commitmentsInFormat1).field());

        Statement format3 = copy(committed);
        format3.setFormatVersion(3);
        assertEquals("format_version", violation(format3).field());

        Statement format1Written = copy(vote);
        format1Written.setFormatVersion(1);
        assertEquals("format_version", violation(format1Written).field());

        Statement noMap = copy(committed);
        noMap.setCommitments(null);
        assertEquals("commitments", violation(noMap).field());

        Statement userInClear = copy(committed);
        userInClear.setUserId("user-42");
        assertEquals("user_id", violation(userInClear).field());

        Statement ipInClear = copy(committed);
        ((CastVote) ipInClear.getBody()).setIp("10.0.0.1");
        assertEquals("body.ip", violation(ipInClear).field());

        Statement shortCommitment = copy(committed);
        shortCommitment.getCommitments().put("user_id", ByteBuffer.wrap(new byte[31]));
        assertEquals("commitments.user_id", violation(shortCommitment).field());

        Statement unknownPath = copy(committed);
        unknownPath.getCommitments().put("election_id", ByteBuffer.wrap(new byte[32]));
        assertTrue(violation(unknownPath).rule().contains("'election_id' is not a personal field"));

        Statement login = copy(committed);
        login.setBody(
                IdentityProviderUserEvent.newBuilder().setEventType("LOGIN").build());
        login.getCommitments().remove("body.ip");
        assertTrue(
                violation(login).rule().contains("'body.country' is not a personal field"), "a login has no country");
    }

    /** CastVoteError's error is required by the schema: committed, it holds the empty string (decision 141). */
    @Test
    void aRequiredPersonalFieldHoldsTheEmptyStringAndItsCommitment() {
        Statement error = ElectionStatements.everyKind("committed-board").stream()
                .filter(s -> s.getKind() == StatementKind.CAST_VOTE_ERROR)
                .findFirst()
                .orElseThrow();
        Committed c = CommittedForm.commit(error);
        assertEquals("", ((CastVoteError) c.statement().getBody()).getError().toString());
        assertTrue(toMap(c.openings()).containsKey("body.error"));
        assertTrue(
                StatementRules.check(c.statement()).isEmpty(),
                () -> StatementRules.check(c.statement()).orElseThrow().message());
        assertFalse(CanonicalStatementReader.holdsPersonalValue(CanonicalStatement.encode(c.statement())));

        Statement inClear = copy(c.statement());
        ((CastVoteError) inClear.getBody()).setError("ballot rejected");
        assertEquals("body.error", violation(inClear).field());

        Statement uncommitted = copy(c.statement());
        uncommitted.getCommitments().remove("body.error");
        assertEquals("body.error", violation(uncommitted).field());
    }

    private static StatementRules.Violation violation(Statement s) {
        StatementRules.Violation v = StatementRules.check(s).orElseThrow(() -> new AssertionError("accepted: " + s));
        assertEquals(BadEventException.Reason.INVALID, v.reason());
        return v;
    }

    private static Statement copy(Statement s) {
        Statement c = org.apache.avro.specific.SpecificData.get().deepCopy(Statement.getClassSchema(), s);
        if (c.getCommitments() != null) {
            c.setCommitments(new HashMap<>(c.getCommitments()));
        }
        return c;
    }

    private static Map<String, String> toMap(List<Opening> openings) {
        Map<String, String> m = new HashMap<>();
        openings.forEach(o -> m.put(o.path(), o.value()));
        return m;
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }
}
