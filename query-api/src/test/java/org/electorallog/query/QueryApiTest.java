package org.electorallog.query;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.Cosigner;
import org.electorallog.core.Hashes;
import org.electorallog.core.NoteSigner;
import org.electorallog.core.NoteVerifier;
import org.electorallog.core.ProofVerifier;
import org.electorallog.core.TileTree;
import org.electorallog.core.TlogPolicy;
import org.electorallog.core.WitnessPolicy;
import org.electorallog.infra.SharedStack;
import org.electorallog.infra.Stack;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.producer.EventsTopic;
import org.electorallog.projector.Projector;
import org.electorallog.projector.ProjectorSettings;
import org.electorallog.schemas.StatementCodec;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.schemas.avro.StatementKind;
import org.electorallog.testkit.Poll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The public endpoints over real HTTP, on a board projected from the real broker into PostgreSQL. */
class QueryApiTest {
    static final String BOARD = "api-board";
    static final int N = 777;
    /** A board of large statements, whose export (about 24 MB) no socket buffer holds. */
    static final String BIG_BOARD = "api-big-board";

    static final int BIG_RECORDS = 300;
    static final ObjectMapper JSON = new ObjectMapper();
    static final HttpClient HTTP = HttpClient.newHttpClient();
    static final NoteSigner SIGNER = NoteSigner.generate("api-test.electoral-log.local");
    static final List<byte[]> LEAVES = new ArrayList<>();
    static QueryApi api;

    @BeforeAll
    static synchronized void load() throws Exception {
        if (api != null) {
            return;
        }
        Stack stack = SharedStack.get();
        String topic = "api-test-events";
        EventsTopic.ensure(stack.kafkaBootstrap(), topic, 1, (short) 1);
        EventsTopic.ensure(stack.kafkaBootstrap(), topic + ".dlq", 1, (short) 1);
        DatabaseLogin db = stack.database();
        ProjectorSettings settings = ProjectorSettings.defaults(
                        stack.kafkaBootstrap(), db, Path.of("target/stack/api-streams"), SIGNER)
                .withTopics(topic, topic + ".dlq")
                .withApplicationId("api-test")
                .withBatch(100, Duration.ofMillis(50))
                .withOriginPrefix("api-test.electoral-log.local/")
                .withKeyEncryption(org.electorallog.statement.KeyEncryptionKeys.generate());
        try (Projector projector = Projector.start(settings);
                ElectoralLogProducer producer =
                        ElectoralLogProducer.create(ElectoralLogProducer.defaults(stack.kafkaBootstrap()), topic);
                // the seal is the log's own statement, signed with its key (decision 130)
                ElectoralLogProducer sealer = ElectoralLogProducer.builder(stack.kafkaBootstrap())
                        .topic(topic)
                        .senderKey(SIGNER.statementKey())
                        .build()) {
            long last = -1;
            for (int i = 0; i < N; i++) {
                Statement s = Statement.newBuilder()
                        .setBoard(BOARD)
                        .setDeliveryId("api-" + i)
                        .setKind(StatementKind.CAST_VOTE)
                        .setStatementTimestamp(1_000_000 + i)
                        .setSenderName("voting-service")
                        .setSenderPublicKey(ByteBuffer.wrap(new byte[32]))
                        .setUserId("user-" + (i % 50))
                        .setElectionId("e" + (i % 3))
                        .setBallotId("b" + i)
                        .build();
                LEAVES.add(Hashes.leafHash(StatementCodec.canonical(s)));
                last = producer.publish(s).get().offset();
            }
            for (Statement s : AccessTest.personalStatements()) {
                last = producer.publish(s).get().offset();
            }
            // the same values in the committed form (issue 46), its data key in the projection's key store
            try (com.zaxxer.hikari.HikariDataSource keys = org.electorallog.store.ProjectionDatabase.pool(
                            db.jdbcUrl(), db.user(), db.password(), 1, "api-test-keys");
                    ElectoralLogProducer committed = ElectoralLogProducer.builder(stack.kafkaBootstrap())
                            .topic(topic)
                            .senderKey(org.electorallog.core.SigningKey.generate())
                            .committedForm(new org.electorallog.store.SqlSealingKeys(keys))
                            .build()) {
                last = committed.publish(AccessTest.committedVote()).get().offset();
            }
            for (Statement s : KeycloakOidcTest.ballots()) {
                last = producer.publish(s).get().offset();
            }
            for (Statement s : SealedBoardTest.statements()) { // one at a time: the seal between the others
                last = (s.getKind() == StatementKind.BOARD_SEALED ? sealer : producer)
                        .publish(s)
                        .get()
                        .offset();
            }
            // a board whose export is larger than any socket buffer (HostileCallersTest's stalled client)
            java.util.Random random = new java.util.Random(41);
            for (int i = 0; i < BIG_RECORDS; i++) {
                byte[] artifact = new byte[60_000];
                random.nextBytes(artifact);
                last = producer.publish(Statement.newBuilder()
                                .setBoard(BIG_BOARD)
                                .setDeliveryId("big-" + i)
                                .setKind(StatementKind.KEY_GENERATION)
                                .setStatementTimestamp(1_000_000 + i)
                                .setSenderName("back-office")
                                .setSenderPublicKey(ByteBuffer.wrap(new byte[32]))
                                .setArtifact(ByteBuffer.wrap(artifact))
                                .build())
                        .get()
                        .offset();
            }
            try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password())) {
                long until = last;
                Poll.until(Duration.ofSeconds(120), "offset " + last + " projected", () -> offset(c, topic) > until);
            }
        }
        // no rate limit on the shared instance (HttpProtectionTest and AccessTest test it on their own)
        // as the read-only login of store V8, as deployments run it (docs/security.md)
        api = QueryApi.start(
                QueryApiSettings.publicOnly(new DatabaseLogin(db.jdbcUrl(), "electoral_log_query_api", ""), 0)
                        .withHttp(HttpSettings.defaults().withLimits(RatePolicy.unlimited()))
                        .withAccess(new AccessSettings(TOKENS, VOTER_USER, null, Set.of(), Set.of(), List.of()))
                        // the sender registry's writes as store V9's registrar login
                        .withRegistrar(new DatabaseLogin(db.jdbcUrl(), "electoral_log_registrar", "")));
    }

    static long offset(Connection c, String topic) throws Exception {
        try (PreparedStatement ps = c.prepareStatement("SELECT next_offset FROM partition_offsets WHERE topic = ?")) {
            ps.setString(1, topic);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }

    // the API and its data are shared by the test classes of this module and stop with the JVM

    /** The static token of each role on {@link #api}; the voter token stands for {@link #VOTER_USER}. */
    static final Map<Role, String> TOKENS = Map.of(
            Role.VOTER, "voter-token-0123456789abcdef",
            Role.OBSERVER, "observer-token-0123456789abcdef",
            Role.ANALYST, "analyst-token-0123456789abcdef",
            Role.ADMIN, "admin-token-of-api-0123456789abcdef");

    static final String VOTER_USER = "user-7";

    static HttpResponse<String> get(String path) throws Exception {
        return get(path, Role.ANONYMOUS);
    }

    /** GET as a caller of {@code role} (anonymous: no Authorization header). */
    static HttpResponse<String> get(String path, Role role) throws Exception {
        HttpRequest.Builder b =
                HttpRequest.newBuilder(URI.create(api.baseUrl() + path)).GET();
        if (role != Role.ANONYMOUS) {
            b.header("Authorization", "Bearer " + TOKENS.get(role));
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Issue 68 item 3: each board's witnessing rule beside its checkpoint, as a C2SP tlog-policy file. */
    @Test
    void theBoardsPolicyNamesTheLogKeyTheWitnessesAndTheQuorum() throws Exception {
        Cosigner.Key w = Cosigner.Key.generate("policy-witness.example");
        DatabaseLogin db = SharedStack.get().database();
        try (QueryApi withKeys = QueryApi.start(
                QueryApiSettings.publicOnly(new DatabaseLogin(db.jdbcUrl(), "electoral_log_query_api", ""), 0)
                        .withLogKeys(List.of(NoteVerifier.parse(SIGNER.verifierKey())))
                        .withWitnesses(WitnessPolicy.parse(List.of(w.verifierKey() + " http://127.0.0.1:9"), "1")))) {
            HttpResponse<String> r = HTTP.send(
                    HttpRequest.newBuilder(URI.create(withKeys.baseUrl() + "/boards/" + BOARD + "/policy"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), r.body());
            TlogPolicy policy = TlogPolicy.parse(r.body());
            assertEquals(
                    List.of(SIGNER.verifierKey()),
                    policy.logKeys().stream().map(NoteVerifier::verifierKey).toList());
            assertTrue(policy.met(List.of(Cosigner.Verifier.parse(w.verifierKey()))));
            assertTrue(policy.asksAny(), "a quorum of 1: " + r.body());
            // the board's checkpoint opens with the policy's log key
            Checkpoint.open(get("/boards/" + BOARD + "/checkpoint").body(), policy.logKeys());
            HttpResponse<String> none = HTTP.send(
                    HttpRequest.newBuilder(URI.create(withKeys.baseUrl() + "/boards/no-such-board/policy"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(404, none.statusCode(), none.body());
        }
        assertEquals("quorum none\n", get("/boards/" + BOARD + "/policy").body(), "no keys configured, no witness");
    }

    /** Issue 69 item 4: the board's checkpoint history, one checkpoint at or past a size at a time. */
    @Test
    void theCheckpointHistoryIsReadFromASize() throws Exception {
        List<NoteVerifier> key = List.of(NoteVerifier.parse(SIGNER.verifierKey()));
        Checkpoint first =
                Checkpoint.open(get("/boards/" + BOARD + "/checkpoint?from=0").body(), key);
        assertTrue(first.size() > 0 && first.size() <= N, "the first checkpoint: " + first.size());
        Checkpoint last = Checkpoint.open(
                get("/boards/" + BOARD + "/checkpoint?from=" + N).body(), key);
        assertEquals(N, last.size());
        assertError(
                404, "/boards/" + BOARD + "/checkpoint?from=" + (N + 1), "no checkpoint at or past size " + (N + 1));
        assertError(400, "/boards/" + BOARD + "/checkpoint?from=1&witnessed=true", "give witnessed or from, not both");
        assertError(400, "/boards/" + BOARD + "/checkpoint?from=last", "from");
    }

    @Test
    void checkpointAndProofsVerify() throws Exception {
        HttpResponse<String> r = get("/boards/" + BOARD + "/checkpoint");
        assertEquals(200, r.statusCode());
        assertTrue(r.headers().firstValue("content-type").orElse("").startsWith("text/plain"));
        Checkpoint cp = Checkpoint.open(r.body(), List.of(NoteVerifier.parse(SIGNER.verifierKey())));
        assertEquals(N, cp.size());
        TileTree t = TileTree.empty();
        LEAVES.forEach(t::appendLeafHash);
        assertArrayEquals(t.root(), cp.root());
        for (int id : new int[] {0, 255, 256, 500, N - 1}) {
            JsonNode p = JSON.readTree(
                    get("/boards/" + BOARD + "/records/" + id + "/proof").body());
            List<byte[]> hashes = new ArrayList<>();
            p.get("hashes").forEach(h -> hashes.add(Base64.getDecoder().decode(h.asText())));
            ProofVerifier.verifyInclusion(id, cp.size(), LEAVES.get(id), hashes, cp.root());
            // at the latest checkpoint the root served is the signed one
            assertArrayEquals(
                    cp.root(), Base64.getDecoder().decode(p.get("root").asText()), "root");
            // the leaf hash served (the level-0 tile's entry) is the statement's own
            assertArrayEquals(
                    LEAVES.get(id),
                    Base64.getDecoder().decode(p.get("leaf_hash").asText()),
                    "leaf " + id);
        }
        // a proof at an older size verifies against the root at that size
        JsonNode old = JSON.readTree(
                get("/boards/" + BOARD + "/records/3/proof?size=300").body());
        TileTree t300 = TileTree.empty();
        LEAVES.subList(0, 300).forEach(t300::appendLeafHash);
        List<byte[]> hashes = new ArrayList<>();
        old.get("hashes").forEach(h -> hashes.add(Base64.getDecoder().decode(h.asText())));
        ProofVerifier.verifyInclusion(3, 300, LEAVES.get(3), hashes, t300.root());
        assertArrayEquals(
                LEAVES.get(3), Base64.getDecoder().decode(old.get("leaf_hash").asText()));
        assertArrayEquals(
                t300.root(), Base64.getDecoder().decode(old.get("root").asText()));
    }

    @Test
    void aReceiptHoldingOnlyTheLeafHashGetsItsProof() throws Exception {
        Checkpoint cp = Checkpoint.open(
                get("/boards/" + BOARD + "/checkpoint").body(), List.of(NoteVerifier.parse(SIGNER.verifierKey())));
        for (int id : new int[] {0, 123, N - 1}) {
            byte[] leaf = LEAVES.get(id);
            // the same answer for standard base64 (+ as %2B), URL-safe base64 and hex
            for (String form : List.of(
                    enc(Base64.getEncoder().encodeToString(leaf)),
                    Base64.getUrlEncoder().withoutPadding().encodeToString(leaf),
                    java.util.HexFormat.of().formatHex(leaf))) {
                HttpResponse<String> r = get("/boards/" + BOARD + "/proof?leaf_hash=" + form);
                assertEquals(200, r.statusCode(), r.body());
                JsonNode p = JSON.readTree(r.body());
                assertEquals(id, p.get("index").asLong(), form);
                List<byte[]> hashes = new ArrayList<>();
                p.get("hashes").forEach(h -> hashes.add(Base64.getDecoder().decode(h.asText())));
                ProofVerifier.verifyInclusion(id, cp.size(), leaf, hashes, cp.root());
            }
        }
        byte[] unknown = Hashes.leafHash("not a statement".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertError(
                404,
                "/boards/" + BOARD + "/proof?leaf_hash="
                        + java.util.HexFormat.of().formatHex(unknown),
                "has no cast vote with leaf hash");
        assertError(400, "/boards/" + BOARD + "/proof?leaf_hash=abc", "not a 32-byte hash");
        assertError(400, "/boards/" + BOARD + "/proof", "leaf_hash is required");
    }

    static String enc(String s) {
        return java.net.URLEncoder.encode(s, java.nio.charset.StandardCharsets.UTF_8);
    }

    @Test
    void recordsAndBoardsAreServed() throws Exception {
        JsonNode rec = JSON.readTree(
                get("/boards/" + BOARD + "/records/42", Role.OBSERVER).body());
        assertEquals(42, rec.get("id").asLong());
        assertEquals("CAST_VOTE", rec.get("kind").asText());
        assertEquals("user-42", rec.get("user_id").asText());
        assertArrayEquals(
                LEAVES.get(42), Base64.getDecoder().decode(rec.get("leaf_hash").asText()));
        JsonNode boards = JSON.readTree(get("/boards").body());
        boolean found = false;
        for (JsonNode b : boards.get("boards")) {
            found |= b.get("board").asText().equals(BOARD) && b.get("size").asLong() == N;
        }
        assertTrue(found, boards.toString());
    }

    @Test
    void badRequestsGetA4xxWithAMessage() throws Exception {
        assertError(400, "/boards/" + BOARD + "/records/abc", "record ID must be a non-negative whole number");
        assertError(400, "/boards/" + BOARD + "/records/-1", "record ID must be a non-negative whole number");
        assertError(
                400,
                "/boards/" + BOARD + "/records/99999999999999999999",
                "record ID must be a non-negative whole number");
        assertError(404, "/boards/" + BOARD + "/records/" + N, "has no record " + N);
        assertError(404, "/boards/no-such-board/checkpoint", "there is no board named 'no-such-board'");
        assertError(400, "/boards/Bad%27Board/checkpoint", "is not valid");
        assertError(400, "/boards/" + BOARD + "/records/5/proof?size=0", "size must be between 1 and");
        assertError(400, "/boards/" + BOARD + "/records/5/proof?size=" + (N + 1), "size must be between 1 and");
        assertError(400, "/boards/" + BOARD + "/records/500/proof?size=300", "is not in the tree of size 300");
        // the one-statement proof at the latest checkpoint: past it, a huge ID, no board
        assertError(400, "/boards/" + BOARD + "/records/" + N + "/proof", "is not in the tree of size");
        assertError(400, "/boards/" + BOARD + "/records/900000000000000000/proof", "is not in the tree of size");
        assertError(404, "/boards/no-such-board/records/0/proof", "there is no board named 'no-such-board'");
        assertError(
                400,
                "/boards/" + BOARD + "/records/5/proof?size=1%20OR%201=1",
                "size must be a non-negative whole number");
        assertError(404, "/nothing/here", "no endpoint at /nothing/here");
    }

    static void assertError(int status, String path, String detailPart) throws Exception {
        assertError(status, get(path), detailPart);
    }

    static void assertError(int status, String path, String detailPart, Role role) throws Exception {
        assertError(status, get(path, role), detailPart);
    }

    static void assertError(int status, HttpResponse<String> r, String detailPart) throws Exception {
        String path = r.uri().getPath();
        assertEquals(status, r.statusCode(), path + " -> " + r.body());
        assertTrue(
                r.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json"),
                "RFC 9457 media type: " + r.headers().map());
        JsonNode body = JSON.readTree(r.body());
        assertTrue(body.get("type").asText().startsWith("urn:electoral-log:problem:"), r.body());
        assertEquals(status, body.get("status").asInt(), r.body());
        assertFalse(body.get("title").asText().isEmpty(), r.body());
        assertEquals(r.uri().getRawPath(), body.get("instance").asText(), r.body());
        assertTrue(body.get("detail").asText().contains(detailPart), path + " -> " + r.body());
    }
}
