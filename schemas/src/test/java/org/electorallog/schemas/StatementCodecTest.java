package org.electorallog.schemas;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.electorallog.schemas.avro.CastVote;
import org.electorallog.schemas.avro.Envelope;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.schemas.avro.StatementKind;
import org.electorallog.statement.StatementKinds;
import org.junit.jupiter.api.Test;

class StatementCodecTest {
    static Envelope vote(String user) {
        Statement st = Statement.newBuilder()
                .setBoard("board-1")
                .setDeliveryId("d-" + user)
                .setKind(StatementKind.CAST_VOTE)
                .setStatementTimestamp(1_700_000_000_000L)
                .setSenderName("voting-service")
                .setSenderPublicKey(ByteBuffer.wrap(new byte[32]))
                .setUserId(user)
                .setElectionId("e1")
                .setBody(CastVote.newBuilder()
                        .setElectionId("e1")
                        .setPseudonymHash(ByteBuffer.wrap(new byte[] {1}))
                        .setCastVoteHash(ByteBuffer.wrap(new byte[] {2}))
                        .build())
                .build();
        return Envelope.newBuilder().setStatement(st).build();
    }

    @Test
    void roundTripsThroughTheWireFormat() throws Exception {
        StatementCodec codec = StatementCodec.embedded();
        byte[] wire = codec.encode(vote("u1"));
        assertEquals(0, wire[0]);
        assertEquals(6, WireFormat.schemaId(wire), "the embedded registry's newest envelope (manifest)");
        DecodedStatement d = codec.decode(wire);
        assertEquals("board-1", d.board());
        assertEquals("CAST_VOTE", d.kind());
        assertEquals("u1", d.userId());
        assertEquals(null, d.username());
        assertArrayEquals(
                StatementCodec.canonical(vote("u1").getStatement()), d.entry().canonical());
        assertEquals(vote("u1"), codec.decodeSpecific(wire));
    }

    @Test
    void canonicalBytesCoverEveryStoredFieldAndStartWithTheMagic() {
        byte[] a = StatementCodec.canonical(vote("u1").getStatement());
        byte[] b = StatementCodec.canonical(vote("u2").getStatement());
        assertArrayEquals(CanonicalStatement.MAGIC, Arrays.copyOf(a, 4));
        assertEquals(false, Arrays.equals(a, b));
        Statement withArea =
                Statement.newBuilder(vote("u1").getStatement()).setAreaId("a").build();
        assertEquals(false, Arrays.equals(a, StatementCodec.canonical(withArea)));
    }

    @Test
    void badMessagesAreRefusedWithTheirReason() {
        StatementCodec codec = StatementCodec.embedded();
        assertEquals(
                BadEventException.Reason.UNDECODABLE,
                assertThrows(BadEventException.class, () -> codec.decode(new byte[] {0, 0}))
                        .reason());
        assertEquals(
                BadEventException.Reason.NO_SCHEMA,
                assertThrows(BadEventException.class, () -> codec.decode("{\"json\":1}".getBytes()))
                        .reason());
        assertEquals(
                BadEventException.Reason.UNKNOWN_SCHEMA,
                assertThrows(BadEventException.class, () -> codec.decode(WireFormat.frame(999, new byte[10])))
                        .reason());
        byte[] wire = codec.encode(vote("u1"));
        byte[] truncated = Arrays.copyOf(wire, wire.length - 5);
        assertEquals(
                BadEventException.Reason.UNDECODABLE,
                assertThrows(BadEventException.class, () -> codec.decode(truncated))
                        .reason());
        byte[] longer = Arrays.copyOf(wire, wire.length + 3);
        assertEquals(
                BadEventException.Reason.UNDECODABLE,
                assertThrows(BadEventException.class, () -> codec.decode(longer))
                        .reason());
    }

    @Test
    void theWriterSchemasFingerprintPicksTheSchemaWhateverTheId() throws Exception {
        StatementCodec codec = StatementCodec.embedded();
        byte[] wire = codec.encode(vote("u1"));
        byte[] canonical = codec.decode(wire).entry().canonical();
        String fp = StatementCodec.envelopeFingerprint();
        assertArrayEquals(canonical, codec.decode(wire, fp).entry().canonical(), "its own ID and fingerprint");
        // framed with another registry's ID (1 is an older envelope here): the fingerprint still picks the writer's
        byte[] other = wire.clone();
        System.arraycopy(WireFormat.frame(1, new byte[0]), 0, other, 0, WireFormat.HEADER_SIZE);
        DecodedStatement read = codec.decode(other, fp);
        assertArrayEquals(canonical, read.entry().canonical());
        assertEquals(
                EmbeddedSchemaRegistry.instance().idOf(Topics.EVENTS_SUBJECT, Envelope.getClassSchema()),
                read.schemaId(),
                "the record keeps the ID this build knows the schema by");
        assertEquals(fp, EmbeddedSchemaRegistry.fingerprint(read.writerSchema()), "read with the writer's schema");
        // a fingerprint no registry here knows: never read with the ID's schema
        String stranger = EmbeddedSchemaRegistry.fingerprint(Statement.getClassSchema());
        assertEquals(
                BadEventException.Reason.SCHEMA_MISMATCH,
                assertThrows(BadEventException.class, () -> codec.decode(other, stranger))
                        .reason());
        assertEquals(
                BadEventException.Reason.UNKNOWN_SCHEMA,
                assertThrows(
                                BadEventException.class,
                                () -> codec.decode(WireFormat.frame(999, new byte[] {2}), stranger))
                        .reason());
        // required: an event that names no writer schema is refused, one that does is read
        StatementCodec strict = new StatementCodec(EmbeddedSchemaRegistry.instance(), Topics.EVENTS_SUBJECT, true);
        BadEventException unnamed = assertThrows(BadEventException.class, () -> strict.decode(wire));
        assertEquals(BadEventException.Reason.SCHEMA_MISMATCH, unnamed.reason());
        assertArrayEquals(canonical, strict.decode(wire, fp).entry().canonical());
    }

    @Test
    void kindCodesFollowTheAvroEnumAndNeverMove() {
        assertEquals(StatementKind.getClassSchema().getEnumSymbols(), StatementKinds.NAMES);
        assertEquals(1, StatementKinds.code("CAST_VOTE"));
        assertEquals(StatementKinds.CAST_VOTE, StatementKinds.code("CAST_VOTE"));
        assertEquals(3, StatementKinds.code("IDP_USER_EVENT"));
        assertEquals(StatementKinds.LOG_CONTINUATION, StatementKinds.code("LOG_CONTINUATION"));
        assertEquals(17, StatementKinds.LOG_CONTINUATION);
        assertEquals(StatementKinds.BOARD_SEALED, StatementKinds.code("BOARD_SEALED"));
        assertEquals(StatementKinds.PERSONAL_DATA_ERASED, StatementKinds.code("PERSONAL_DATA_ERASED"));
    }

    @Test
    void theCurrentSchemaIsInTheManifest() {
        assertEquals(6, EmbeddedSchemaRegistry.instance().idOf(Topics.EVENTS_SUBJECT, Envelope.getClassSchema()));
    }

    @Test
    void boardNames() {
        assertEquals("board-1", BoardName.check("board-1"));
        assertThrows(IllegalArgumentException.class, () -> BoardName.check("Board"));
        assertThrows(IllegalArgumentException.class, () -> BoardName.check("-x"));
        assertThrows(IllegalArgumentException.class, () -> BoardName.check("x".repeat(65)));
    }
}
