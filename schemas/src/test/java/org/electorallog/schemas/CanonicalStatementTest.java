package org.electorallog.schemas;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.electorallog.schemas.avro.CastVote;
import org.electorallog.schemas.avro.ElectionPublished;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.schemas.avro.StatementKind;
import org.electorallog.statement.CanonicalStatementReader;
import org.junit.jupiter.api.Test;

/** Golden vectors of the canonical statement bytes documented in schemas/README.md. */
class CanonicalStatementTest {

    static Statement minimal() {
        return Statement.newBuilder()
                .setBoard("b")
                .setDeliveryId("d")
                .setKind(StatementKind.CAST_VOTE)
                .setStatementTimestamp(1)
                .setSenderName("s")
                .setSenderPublicKey(ByteBuffer.wrap(new byte[] {1, 2}))
                .build();
    }

    @Test
    void theMinimalStatementIsEncodedExactlyAsDocumented() {
        ByteArrayOutputStream x = new ByteArrayOutputStream();
        x.writeBytes("ELS1".getBytes(StandardCharsets.US_ASCII));
        x.write(0x07);
        str(x, "Statement");
        x.write(6); // six non-null fields, by name:
        str(x, "board");
        x.write(0x04);
        str(x, "b");
        str(x, "delivery_id");
        x.write(0x04);
        str(x, "d");
        str(x, "kind");
        x.write(0x06);
        str(x, "CAST_VOTE");
        str(x, "sender_name");
        x.write(0x04);
        str(x, "s");
        str(x, "sender_public_key");
        x.write(0x05);
        x.write(2);
        x.write(1);
        x.write(2);
        str(x, "statement_timestamp");
        x.write(0x02);
        x.writeBytes(new byte[] {0, 0, 0, 0, 0, 0, 0, 1});
        assertArrayEquals(x.toByteArray(), CanonicalStatement.encode(minimal()));
    }

    static void str(ByteArrayOutputStream x, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        x.write(b.length); // every string here is shorter than 128: a one-byte uvarint
        x.writeBytes(b);
    }

    @Test
    void goldenVectorsOfFullStatementsArePinned() {
        Statement vote = Statement.newBuilder()
                .setBoard("election-2026")
                .setDeliveryId("0190f1a2-7c3d-7e4f-8a5b-6c7d8e9fa0b1")
                .setKind(StatementKind.CAST_VOTE)
                .setStatementTimestamp(1_767_225_600_123L)
                .setSenderName("voting-service")
                .setSenderPublicKey(ByteBuffer.wrap(new byte[32]))
                .setUserId("user-000042")
                .setUsername("voter42@example.org")
                .setElectionId("e1")
                .setAreaId("area-7")
                .setBallotId("ab".repeat(32))
                .setBody(CastVote.newBuilder()
                        .setElectionId("e1")
                        .setPseudonymHash(ByteBuffer.wrap(new byte[] {9, 9}))
                        .setCastVoteHash(ByteBuffer.wrap(new byte[] {7, 7}))
                        .setCountry("ES")
                        .build())
                .build();
        Statement published = Statement.newBuilder()
                .setBoard("election-2026")
                .setDeliveryId("p-1")
                .setKind(StatementKind.ELECTION_PUBLISHED)
                .setStatementTimestamp(1_767_225_600_000L)
                .setSenderName("admin")
                .setSenderPublicKey(ByteBuffer.wrap(new byte[32]))
                .setBody(ElectionPublished.newBuilder()
                        .setElectionIds(List.of("e1", "e2"))
                        .build())
                .build();
        assertEquals(GOLDEN_VOTE, sha256(CanonicalStatement.encode(vote)));
        assertEquals(GOLDEN_PUBLISHED, sha256(CanonicalStatement.encode(published)));
    }

    static String sha256(byte[] b) {
        try {
            return java.util.HexFormat.of()
                    .formatHex(
                            java.security.MessageDigest.getInstance("SHA-256").digest(b));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** SHA-256 of the canonical bytes; a change here changes every leaf of every log: never. */
    static final String GOLDEN_VOTE = "728efd4f14909792446aa9e4210f28c3f560947b319291dc9fcc3701d329fb1e";

    static final String GOLDEN_PUBLISHED = "6834f13a3a0cb4530ad957da55d65c58c4e4ba80ff6b972fcc306780e34267f3";

    @Test
    void nullFieldsAreLeftOutAndFieldOrderIsByName() {
        Statement a = minimal();
        Statement b = Statement.newBuilder(minimal())
                .setUserId(null)
                .setArtifact(null)
                .build();
        assertArrayEquals(CanonicalStatement.encode(a), CanonicalStatement.encode(b));
        Statement c = Statement.newBuilder(minimal()).setUserId("").build();
        assertEquals(
                CanonicalStatement.encode(a).length + 1 + "user_id".length() + 2,
                CanonicalStatement.encode(c).length,
                "an empty string is present, unlike null");
    }

    @Test
    void decodeFieldsReadsTheTopLevelFieldsBack() {
        java.util.Map<String, Object> f = CanonicalStatementReader.fields(CanonicalStatement.encode(minimal()));
        assertEquals("b", f.get("board"));
        assertEquals("CAST_VOTE", f.get("kind"));
        assertEquals(1L, f.get("statement_timestamp"));
        assertArrayEquals(new byte[] {1, 2}, (byte[]) f.get("sender_public_key"));
        Statement withBody = Statement.newBuilder(minimal())
                .setBody(CastVote.newBuilder()
                        .setElectionId("e")
                        .setPseudonymHash(ByteBuffer.wrap(new byte[1]))
                        .setCastVoteHash(ByteBuffer.wrap(new byte[1]))
                        .build())
                .build();
        java.util.Map<String, Object> top = CanonicalStatementReader.fields(CanonicalStatement.encode(withBody));
        assertEquals(7, top.size());
        java.util.Map<String, Object> body = CanonicalStatementReader.record((byte[]) top.get("body"));
        assertEquals("e", body.get("election_id"));
        assertArrayEquals(new byte[1], (byte[]) body.get("cast_vote_hash"));
        byte[] bad = CanonicalStatement.encode(minimal());
        org.junit.jupiter.api.Assertions.assertThrows(
                IllegalArgumentException.class,
                () -> CanonicalStatementReader.fields(java.util.Arrays.copyOf(bad, bad.length - 3)));
    }
}
