package org.electorallog.schemas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.electorallog.schemas.avro.CastVote;
import org.electorallog.schemas.avro.ElectionPublished;
import org.electorallog.schemas.avro.Envelope;
import org.electorallog.schemas.avro.Statement;
import org.junit.jupiter.api.Test;

/** Each rule of what the projection can store, on the generated class and after decoding from the wire. */
class StatementRulesTest {
    private static final StatementCodec CODEC = StatementCodec.embedded();

    private static Statement changed(Consumer<Statement> change) {
        Statement s = Statement.newBuilder(StatementCodecTest.vote("u1").getStatement())
                .build();
        change.accept(s);
        return s;
    }

    /** The violation on the generated statement, checked to be the same after the wire (where the projector sees it). */
    private static String broken(Consumer<Statement> change) throws Exception {
        Statement s = changed(change);
        Optional<StatementRules.Violation> v = StatementRules.check(s);
        String field = v.map(StatementRules.Violation::field).orElse(null);
        byte[] wire = CODEC.encode(Envelope.newBuilder().setStatement(s).build());
        if (v.isPresent()) {
            BadEventException e = assertThrows(BadEventException.class, () -> CODEC.decode(wire));
            assertEquals(v.get().message(), e.getMessage(), "the projector refuses with the producer's message");
            assertEquals(BadEventException.Reason.INVALID, e.reason());
        } else {
            CODEC.decode(wire);
        }
        return field;
    }

    @Test
    void aGoodStatementPassesAndEveryTextLimitIsInclusive() throws Exception {
        assertEquals(null, broken(s -> {}));
        String max = "x".repeat(StatementRules.MAX_TEXT_BYTES);
        assertEquals(null, broken(s -> {
            s.setUserId(max);
            s.setUsername(max);
            s.setElectionId(max);
            s.setAreaId(max);
            s.setBallotId(max);
            s.setSenderName(max);
            s.setDeliveryId("d".repeat(StatementRules.MAX_DELIVERY_ID_CHARS));
            s.setStatementTimestamp(StatementRules.MAX_MILLIS);
        }));
        assertEquals(null, broken(s -> s.setStatementTimestamp(StatementRules.MIN_STATEMENT_MILLIS)));
    }

    /**
     * The path of a bad string nested in maps, arrays and records (what a schema of an external
     * registry may hold): map keys and values, array positions and field names, as a person reads them.
     */
    @Test
    void aBadStringNestedInMapsArraysAndRecordsIsNamedByItsPath() {
        org.apache.avro.Schema item = org.apache.avro.SchemaBuilder.record("Item")
                .fields()
                .requiredString("name")
                .endRecord();
        org.apache.avro.Schema schema = org.apache.avro.SchemaBuilder.record("Custom")
                .fields()
                .requiredString("board")
                .requiredString("delivery_id")
                .requiredString("kind")
                .requiredString("sender_name")
                .requiredBytes("sender_public_key")
                .requiredLong("statement_timestamp")
                .name("extra")
                .type()
                .map()
                .values()
                .array()
                .items(item)
                .noDefault()
                .endRecord();
        java.util.function.Function<java.util.Map<String, List<Object>>, String> pathOf = extra -> {
            org.apache.avro.generic.GenericData.Record r = new org.apache.avro.generic.GenericData.Record(schema);
            r.put("board", "b");
            r.put("delivery_id", "d-1");
            r.put("kind", "CAST_VOTE");
            r.put("sender_name", "voting");
            r.put("sender_public_key", ByteBuffer.wrap(new byte[StatementRules.PUBLIC_KEY_BYTES]));
            r.put("statement_timestamp", 1_767_225_600_000L);
            r.put("extra", extra);
            return StatementRules.check(r).map(StatementRules.Violation::field).orElse(null);
        };
        java.util.function.Function<String, Object> itemNamed = name -> {
            org.apache.avro.generic.GenericData.Record x = new org.apache.avro.generic.GenericData.Record(item);
            x.put("name", name);
            return x;
        };
        assertEquals(null, pathOf.apply(java.util.Map.of("k", List.of(itemNamed.apply("fine")))));
        assertEquals(
                "extra[k][1].name",
                pathOf.apply(java.util.Map.of("k", List.of(itemNamed.apply("fine"), itemNamed.apply("a\u0000b")))));
        assertEquals("extra key", pathOf.apply(java.util.Map.of("k\u0000", List.of())));
    }

    @Test
    void eachRuleNamesItsField() throws Exception {
        String over = "x".repeat(StatementRules.MAX_TEXT_BYTES + 1);
        assertEquals("user_id", broken(s -> s.setUserId(over)));
        assertEquals("username", broken(s -> s.setUsername(over)));
        assertEquals("election_id", broken(s -> s.setElectionId(over)));
        assertEquals("area_id", broken(s -> s.setAreaId(over)));
        assertEquals("ballot_id", broken(s -> s.setBallotId(over)));
        assertEquals("sender_name", broken(s -> s.setSenderName(over)));
        // bytes, not characters: 129 two-byte characters are 258 bytes
        assertEquals("username", broken(s -> s.setUsername("\u00e9".repeat(129))));
        assertEquals("sender_name", broken(s -> s.setSenderName("  ")));
        assertEquals("delivery_id", broken(s -> s.setDeliveryId("d".repeat(StatementRules.MAX_DELIVERY_ID_CHARS + 1))));
        assertEquals("delivery_id", broken(s -> s.setDeliveryId("")));
        assertEquals("board", broken(s -> s.setBoard("Board")));
        assertEquals("sender_public_key", broken(s -> s.setSenderPublicKey(ByteBuffer.wrap(new byte[33]))));
        assertEquals("statement_timestamp", broken(s -> s.setStatementTimestamp(0)));
        assertEquals("statement_timestamp", broken(s -> s.setStatementTimestamp(StatementRules.MAX_MILLIS + 1)));
        assertEquals("statement_timestamp", broken(s -> s.setStatementTimestamp(Long.MIN_VALUE)));
        assertEquals("user_id", broken(s -> s.setUserId("a\u0000b")));
        assertEquals(
                "body.ip",
                broken(s -> s.setBody(CastVote.newBuilder()
                        .setElectionId("e1")
                        .setPseudonymHash(ByteBuffer.wrap(new byte[1]))
                        .setCastVoteHash(ByteBuffer.wrap(new byte[1]))
                        .setIp("\u0000")
                        .build())));
        assertEquals(
                "body.election_ids[1]",
                broken(s -> s.setBody(ElectionPublished.newBuilder()
                        .setElectionIds(List.of("e1", "e\u0000"))
                        .build())));
        // an unpaired surrogate has no UTF-8 form
        assertEquals(
                "username",
                StatementRules.check(changed(s -> s.setUsername("a\ud800b")))
                        .orElseThrow()
                        .field());
    }

    @Test
    void utf8WellFormednessAgreesWithTheJdksStrictDecoder() {
        java.util.Random r = new java.util.Random(7);
        byte[][] fixed = {
            {},
            {0x41},
            {(byte) 0xC3, (byte) 0xA9},
            {(byte) 0xC0, (byte) 0x80},
            {(byte) 0xE0, (byte) 0x80, (byte) 0x80},
            {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
            {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
            {(byte) 0xF0, (byte) 0x9F, (byte) 0x98, (byte) 0x80},
            {(byte) 0xE2, (byte) 0x82},
            {(byte) 0xFF}
        };
        List<byte[]> cases = new java.util.ArrayList<>(List.of(fixed));
        for (int i = 0; i < 20_000; i++) {
            byte[] b = new byte[r.nextInt(6)];
            r.nextBytes(b);
            cases.add(b);
        }
        for (byte[] b : cases) {
            boolean strict;
            try {
                java.nio.charset.StandardCharsets.UTF_8
                        .newDecoder()
                        .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                        .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
                        .decode(ByteBuffer.wrap(b));
                strict = true;
            } catch (java.nio.charset.CharacterCodingException e) {
                strict = false;
            }
            assertEquals(
                    strict,
                    TextRules.wellFormedUtf8(b, b.length),
                    java.util.HexFormat.of().formatHex(b));
        }
    }

    @Test
    void signaturesCanonicalSizeAndRecordTimeHaveTheirOwnChecks() {
        assertTrue(StatementRules.checkSignature("sender_signature", null).isEmpty());
        assertTrue(
                StatementRules.checkSignature("sender_signature", new byte[64]).isEmpty());
        assertEquals(
                "sender_signature",
                StatementRules.checkSignature("sender_signature", new byte[63])
                        .orElseThrow()
                        .field());
        assertTrue(
                StatementRules.checkCanonicalSize(CanonicalStatement.MAX_BYTES).isEmpty());
        assertEquals(
                BadEventException.Reason.OVERSIZED,
                StatementRules.checkCanonicalSize(CanonicalStatement.MAX_BYTES + 1)
                        .orElseThrow()
                        .reason());
        assertTrue(StatementRules.checkRecordTimestamp(0).isEmpty());
        assertTrue(
                StatementRules.checkRecordTimestamp(StatementRules.MAX_MILLIS).isEmpty());
        assertEquals(
                "kafka timestamp",
                StatementRules.checkRecordTimestamp(-1).orElseThrow().field());
        assertEquals(
                "kafka timestamp",
                StatementRules.checkRecordTimestamp(StatementRules.MAX_MILLIS + 1)
                        .orElseThrow()
                        .field());
    }
}
