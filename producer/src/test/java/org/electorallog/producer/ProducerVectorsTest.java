package org.electorallog.producer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.electorallog.core.Hashes;
import org.electorallog.core.SigningKey;
import org.electorallog.schemas.CanonicalStatement;
import org.electorallog.schemas.CommittedForm;
import org.electorallog.schemas.DecodedStatement;
import org.electorallog.schemas.ElectionStatements;
import org.electorallog.schemas.EmbeddedSchemaRegistry;
import org.electorallog.schemas.StatementCodec;
import org.electorallog.schemas.StatementJson;
import org.electorallog.schemas.Topics;
import org.electorallog.schemas.WireFormat;
import org.electorallog.schemas.avro.CastVoteError;
import org.electorallog.schemas.avro.Envelope;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.schemas.avro.StatementKind;
import org.electorallog.statement.PersonalCommitment;
import org.electorallog.statement.PersonalOpenings.Opening;
import org.junit.jupiter.api.Test;

/**
 * The producer test vectors (docs/producers.md, issue 67): for a statement of every kind, its JSON
 * form, canonical bytes, leaf hash, sender signature with a fixed test key, the event's wire bytes
 * (Confluent framing, the embedded envelope schema), and, where it holds personal values, its
 * committed form with fixed salts. The vectors live in {@link #FILE}; this test makes every one
 * again from the code and compares, so the file and the code cannot drift. Run with {@code
 * -Delectoral-log.vectors.write=true} to rewrite the file after a deliberate format change.
 */
class ProducerVectorsTest {
    /** Where the vectors live, from the module's directory. */
    static final Path FILE = Path.of("src/test/resources/vectors/statements.json");

    static final String FORMAT = "electoral-log producer vectors v1";
    static final String BOARD = "vectors-board";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HexFormat HEX = HexFormat.of();
    private static final Base64.Encoder B64 = Base64.getEncoder();

    /** The test key's seed: bytes 1 to 32. Never a real sender's. */
    static byte[] seed() {
        byte[] seed = new byte[32];
        for (int i = 0; i < seed.length; i++) {
            seed[i] = (byte) (i + 1);
        }
        return seed;
    }

    /** The fixed salt of a path: the first 16 bytes of SHA-256("electoral-log vector salt " + path). */
    static byte[] salt(String path) {
        return Arrays.copyOf(
                Hashes.sha256(("electoral-log vector salt " + path).getBytes(StandardCharsets.UTF_8)),
                PersonalCommitment.SALT_BYTES);
    }

    /** The vectors as this build makes them. */
    static ObjectNode make() throws Exception {
        SigningKey key = SigningKey.fromSeed(seed());
        StatementCodec codec = StatementCodec.embedded();
        ObjectNode root = JSON.createObjectNode();
        root.put("format", FORMAT);
        root.put("sender_seed_hex", HEX.formatHex(seed()));
        root.put("sender_public_key_base64", B64.encodeToString(key.publicKey()));
        root.put("topic", Topics.EVENTS);
        root.putObject("headers").put(WireFormat.WRITER_SCHEMA_HEADER, StatementCodec.envelopeFingerprint());
        root.put("schema_id", EmbeddedSchemaRegistry.instance().idOf(Topics.EVENTS_SUBJECT, Envelope.getClassSchema()));
        ArrayNode vectors = root.putArray("vectors");
        for (Statement s : ElectionStatements.everyKind(BOARD)) {
            if (s.getKind() == StatementKind.UNKNOWN) {
                continue; // refused by every producer and projector: no vector
            }
            s.setSenderPublicKey(ByteBuffer.wrap(key.publicKey()));
            ObjectNode v = vectors.addObject();
            v.put("kind", s.getKind().name());
            part(v, s, key, codec);
            CommittedForm.Committed c = CommittedForm.commit(s, ProducerVectorsTest::salt);
            if (!c.openings().isEmpty()) {
                ObjectNode committed = v.putObject("committed");
                ObjectNode salts = committed.putObject("salts");
                ObjectNode values = committed.putObject("values");
                for (Opening o : c.openings()) {
                    salts.put(o.path(), HEX.formatHex(o.salt()));
                    values.put(o.path(), o.value());
                }
                part(committed, c.statement(), key, codec);
            }
        }
        return root;
    }

    /** A statement's JSON, canonical bytes, leaf hash, sender signature and wire bytes. */
    private static void part(ObjectNode v, Statement s, SigningKey key, StatementCodec codec) throws Exception {
        byte[] canonical = CanonicalStatement.encode(s);
        byte[] signature = key.sign(canonical);
        v.set("statement", JSON.readTree(StatementJson.write(s)));
        v.put("canonical_hex", HEX.formatHex(canonical));
        v.put("leaf_hash_hex", HEX.formatHex(Hashes.leafHash(canonical)));
        v.put("sender_signature_base64", B64.encodeToString(signature));
        Envelope e = Envelope.newBuilder()
                .setStatement(s)
                .setSenderSignature(ByteBuffer.wrap(signature))
                .build();
        v.put("wire_hex", HEX.formatHex(codec.encode(e)));
    }

    @Test
    void everyVectorIsWhatTheCodeMakes() throws Exception {
        ObjectNode made = make();
        if (Boolean.getBoolean("electoral-log.vectors.write")) {
            Files.createDirectories(FILE.getParent());
            Files.writeString(FILE, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(made) + "\n");
        }
        JsonNode kept = JSON.readTree(FILE.toFile());
        assertEquals(FORMAT, kept.get("format").asText());
        assertEquals(made.get("vectors").size(), kept.get("vectors").size(), "a vector for every kind");
        for (int i = 0; i < made.get("vectors").size(); i++) {
            JsonNode m = made.get("vectors").get(i);
            JsonNode k = kept.get("vectors").get(i);
            assertEquals(m, k, "vector " + i + " (" + m.get("kind").asText() + ") differs from what the code makes");
        }
        assertEquals(made, kept);
    }

    @Test
    void aCastVoteErrorInTheCommittedFormHoldsAnEmptyErrorAndItsCommitment() throws Exception {
        Statement error = ElectionStatements.everyKind(BOARD).stream()
                .filter(s -> s.getKind() == StatementKind.CAST_VOTE_ERROR)
                .findFirst()
                .orElseThrow();
        String text = ((CastVoteError) error.getBody()).getError().toString();
        CommittedForm.Committed c = CommittedForm.commit(error, ProducerVectorsTest::salt);
        // the schema requires the error: the committed form holds the empty string there (decision 141)
        assertEquals("", ((CastVoteError) c.statement().getBody()).getError().toString());
        assertTrue(c.statement().getCommitments().containsKey("body.error"));
        assertTrue(
                c.openings().stream()
                        .anyMatch(
                                o -> o.path().equals("body.error") && o.value().equals(text)),
                c.openings().toString());
        Envelope e = Envelope.newBuilder()
                .setStatement(c.statement())
                .setSenderSignature(ByteBuffer.allocate(64))
                .build();
        DecodedStatement d =
                StatementCodec.embedded().decode(StatementCodec.embedded().encode(e));
        assertNull(d.error(), "the projection's error is the opened value, never the placeholder");
        assertTrue(d.committed().commits("body.error"));
        JsonNode kept = JSON.readTree(FILE.toFile());
        boolean vector = false;
        for (JsonNode v : kept.get("vectors")) {
            vector |= v.get("kind").asText().equals("CAST_VOTE_ERROR") && v.has("committed");
        }
        assertTrue(vector, "the kind has its committed vector");
    }

    @Test
    void theVectorsReadBackAsAProducerInAnotherLanguageWouldCheckThem() throws Exception {
        JsonNode kept = JSON.readTree(FILE.toFile());
        byte[] publicKey =
                Base64.getDecoder().decode(kept.get("sender_public_key_base64").asText());
        StatementCodec codec = StatementCodec.embedded();
        int committedKinds = 0;
        for (JsonNode v : kept.get("vectors")) {
            check(v, publicKey, codec);
            JsonNode c = v.get("committed");
            if (c != null) {
                committedKinds++;
                check(c, publicKey, codec);
                Statement committed = StatementJson.parse(c.get("statement").toString());
                Map<String, ByteBuffer> commitments = new TreeMap<>(committed.getCommitments());
                assertEquals(
                        List.copyOf(commitments.keySet()),
                        List.copyOf(new TreeMap<>(JSON.convertValue(c.get("salts"), Map.class)).keySet()));
                for (Map.Entry<String, ByteBuffer> e : commitments.entrySet()) {
                    byte[] commitment = new byte[32];
                    e.getValue().duplicate().get(commitment);
                    assertTrue(
                            PersonalCommitment.opens(
                                    commitment,
                                    committed.getBoard(),
                                    committed.getDeliveryId(),
                                    e.getKey(),
                                    HEX.parseHex(c.get("salts").get(e.getKey()).asText()),
                                    c.get("values").get(e.getKey()).asText()),
                            v.get("kind").asText() + " " + e.getKey());
                }
            }
        }
        assertTrue(committedKinds >= 3, "kinds with personal values have a committed vector: " + committedKinds);
    }

    /** JSON -> canonical bytes -> leaf hash; the signature over the canonical bytes; the wire bytes decode to it. */
    private static void check(JsonNode v, byte[] publicKey, StatementCodec codec) throws Exception {
        String kind = v.has("kind") ? v.get("kind").asText() : "committed";
        Statement s = StatementJson.parse(v.get("statement").toString());
        byte[] canonical = CanonicalStatement.encode(s);
        assertEquals(v.get("canonical_hex").asText(), HEX.formatHex(canonical), kind);
        assertEquals(v.get("leaf_hash_hex").asText(), HEX.formatHex(Hashes.leafHash(canonical)), kind);
        byte[] signature =
                Base64.getDecoder().decode(v.get("sender_signature_base64").asText());
        assertTrue(
                SigningKey.verify(publicKey, canonical, signature),
                kind + ": the signature covers the canonical bytes");
        byte[] wire = HEX.parseHex(v.get("wire_hex").asText());
        assertArrayEquals(canonical, codec.decode(wire).entry().canonical(), kind + ": wire bytes");
    }
}
