package org.electorallog.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.utils.Utils;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.NoteSigner;
import org.electorallog.core.NoteVerifier;
import org.electorallog.core.SignedNote;
import org.electorallog.infra.SchemaRegistryServer;
import org.electorallog.infra.SharedStack;
import org.electorallog.infra.Stack;
import org.electorallog.node.LogNode;
import org.electorallog.projector.SignaturePolicy;
import org.electorallog.query.AccessSettings;
import org.electorallog.query.Role;
import org.electorallog.statement.KeyEncryptionKeys;
import org.electorallog.store.Projection;
import org.electorallog.testkit.Poll;
import org.electorallog.testkit.TopicReader;
import org.electorallog.verifier.BoardVerifier;
import org.electorallog.verifier.TlogFiles;
import org.electorallog.verifier.Verification;
import org.electorallog.verifier.VerifyOptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 67 item 5: a producer that is not ours. The Node example (kafkajs, avsc, pg, @hpke/core from
 * npm, written from docs/producers.md) checks the test vectors, then publishes signed statements,
 * plain and in the committed form, through a real schema registry (Apicurio) to a projector that
 * requires signatures and the writer schema header; every statement is then found through the query
 * API by the leaf hash Node computed, the committed values are opened by the log (HPKE and AES-GCM
 * from Node, unwrapped in Java), nothing is dead-lettered, each board verifies whole from the API,
 * and Node's partitioner put each board where the Java client would.
 */
class NodeProducerTest {
    private static final Path EXAMPLE = Path.of("").toAbsolutePath();
    private static final Path ROOT = EXAMPLE.getParent().getParent();
    private static final Path VECTORS = ROOT.resolve("producer/src/test/resources/vectors/statements.json");
    private static final Path ENVELOPE = ROOT.resolve("schemas/src/main/avro/envelope.avsc");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String OBSERVER = "node-producer-observer-token";
    private static final int PARTITIONS = 3;

    /** Installs the example's npm packages as locked (package-lock.json), from the npm cache when it has them. */
    @BeforeAll
    static void install() throws Exception {
        Run npm = run(List.of("npm", "ci", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"), "");
        assertEquals(0, npm.code(), "npm ci: " + npm.err());
    }

    @Test
    void theNodeProducerMakesEveryVectorsBytesAndNoticesAChangedOne() throws Exception {
        Run ok = run(List.of("node", "bin/check-vectors.mjs", VECTORS.toString(), ENVELOPE.toString()), "");
        assertEquals(0, ok.code(), ok.out() + ok.err());
        JsonNode vectors = JSON.readTree(VECTORS.toFile());
        int statements = 0;
        for (JsonNode v : vectors.get("vectors")) {
            statements += v.hasNonNull("committed") ? 2 : 1;
        }
        assertTrue(
                ok.out()
                        .contains(statements + " statements of "
                                + vectors.get("vectors").size() + " vectors checked, 0 mismatches"),
                ok.out());

        // the checker is not a rubber stamp: one changed salt and one changed signature are found
        ObjectNode changed = (ObjectNode) vectors.deepCopy();
        ObjectNode first = (ObjectNode) changed.get("vectors").get(0);
        ((ObjectNode) first.get("committed").get("salts")).put("user_id", "00".repeat(16));
        ((ObjectNode) changed.get("vectors").get(1)).put("sender_signature_base64", "AA==");
        Path file = Files.createDirectories(EXAMPLE.resolve("target")).resolve("changed-vectors.json");
        JSON.writeValue(file.toFile(), changed);
        Run bad = run(List.of("node", "bin/check-vectors.mjs", file.toString(), ENVELOPE.toString()), "");
        assertEquals(1, bad.code(), bad.out() + bad.err());
        assertTrue(bad.err().contains(first.get("kind").asText() + " committed canonical bytes"), bad.err());
        assertTrue(
                bad.err().contains(changed.get("vectors").get(1).get("kind").asText() + " sender signature"),
                bad.err());
    }

    @Test
    void statementsFromNodeProjectAndVerifyThroughTheApi() throws Exception {
        Stack stack = SharedStack.get();
        NoteSigner signer = NoteSigner.generate("node-producer.electoral-log.local");
        String topic = "node-producer-" + System.nanoTime();
        String suffix = Long.toString(System.nanoTime(), 36);
        String plainBoard = "node-plain-" + suffix;
        String committedBoard = "node-committed-" + suffix;
        try (SchemaRegistryServer registry = SchemaRegistryServer.start(Path.of("target/stack"));
                LogNode node = LogNode.on(
                                stack.kafkaBootstrap(),
                                stack.database(),
                                signer,
                                Path.of("target/stack/streams-" + topic))
                        .topics(topic, topic + ".dlq", PARTITIONS)
                        .ownDatabase("node_producer_" + suffix)
                        .projector(s -> s.withApplicationId("app-" + topic)
                                .withBatch(100, Duration.ofMillis(20))
                                .withCheckpointEvery(Duration.ZERO)
                                .withSchemaRegistry(registry.url())
                                .withWriterSchemaRequired(true)
                                .withSignatures(new SignaturePolicy(
                                        SignaturePolicy.Mode.SENDER, Pattern.compile(".*"), List.of()))
                                .withKeyEncryption(KeyEncryptionKeys.generate()))
                        .api(
                                0,
                                a -> a.withAccess(new AccessSettings(
                                        Map.of(Role.OBSERVER, OBSERVER), null, null, Set.of(), Set.of(), List.of())))
                        .start()) {
            DatabaseLogin login = node.login();
            String producerLogin = "node_producer_" + suffix;
            String password = HexFormat.of().formatHex(new SecureRandom().generateSeed(16));
            try (Projection owner = Projection.open(login, 1, "node-producer-test")) {
                owner.keyCustody().allow(producerLogin, password, committedBoard);
            }
            Path seed = Files.createDirectories(EXAMPLE.resolve("target")).resolve("sender-seed-" + suffix);
            Files.writeString(seed, HexFormat.of().formatHex(new SecureRandom().generateSeed(32)));

            List<String> common = List.of(
                    "node",
                    "bin/publish.mjs",
                    "--bootstrap",
                    stack.kafkaBootstrap(),
                    "--topic",
                    topic,
                    "--schema",
                    ENVELOPE.toString(),
                    "--registry",
                    registry.url(),
                    "--sender-seed-file",
                    seed.toString());
            long now = System.currentTimeMillis();
            String repeated = vote(plainBoard, "plain-vote-1", "voter-1", now);
            List<String> plain = List.of(
                    "{\"board\":\"" + plainBoard + "\",\"kind\":\"ELECTION_PUBLISHED\",\"statement_timestamp\":" + now
                            + ",\"sender_name\":\"node-admin\",\"election_id\":\"e1\","
                            + "\"body\":{\"type\":\"ElectionPublished\",\"election_ids\":[\"e1\"]}}",
                    "{\"board\":\"" + plainBoard + "\",\"kind\":\"VOTING_PERIOD_OPENED\",\"statement_timestamp\":\""
                            + java.time.Instant.ofEpochMilli(now) + "\",\"sender_name\":\"node-admin\","
                            + "\"election_id\":\"e1\",\"body\":{\"type\":\"VotingPeriodChange\",\"scope\":\"ELECTION\","
                            + "\"election_id\":\"e1\"}}",
                    repeated,
                    vote(plainBoard, "plain-vote-2", "voter-2", now),
                    repeated, // a retry: same delivery ID, same bytes (the signature is deterministic): dropped
                    vote(plainBoard, "plain-vote-3", "voter-3", now));
            Run published = run(common, String.join("\n", plain) + "\n");
            assertEquals(0, published.code(), published.out() + published.err());

            List<String> committed = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                committed.add(vote(committedBoard, null, "committed-voter-" + i, now));
            }
            committed.add("{\"board\":\"" + committedBoard + "\",\"kind\":\"IDP_USER_EVENT\",\"statement_timestamp\":"
                    + now + ",\"sender_name\":\"node-idp\",\"user_id\":\"committed-voter-0\","
                    + "\"username\":\"voter0@example.org\",\"body\":{\"type\":\"IdentityProviderUserEvent\","
                    + "\"event_type\":\"LOGIN\",\"ip\":\"198.51.100.7\"}}");
            // its error is required by the schema: committed, the body holds "" (decision 141)
            committed.add("{\"board\":\"" + committedBoard + "\",\"kind\":\"CAST_VOTE_ERROR\",\"statement_timestamp\":"
                    + now + ",\"sender_name\":\"node-voting\",\"user_id\":\"committed-voter-9\","
                    + "\"election_id\":\"e1\",\"body\":{\"type\":\"CastVoteError\",\"election_id\":\"e1\","
                    + "\"error\":\"ballot rejected: no signature\"}}");
            List<String> withKeys = new ArrayList<>(common);
            withKeys.addAll(List.of("--committed", "--key-store", keyStoreUrl(login, producerLogin, password)));
            Run sealed = run(withKeys, String.join("\n", committed) + "\n");
            assertEquals(0, sealed.code(), sealed.out() + sealed.err());

            List<JsonNode> sent = new ArrayList<>();
            for (String line : (published.out() + sealed.out()).lines().toList()) {
                if (!line.isBlank()) {
                    sent.add(JSON.readTree(line));
                }
            }
            assertEquals(plain.size() + committed.size(), sent.size(), published.out() + sealed.out());
            HttpClient http = HttpClient.newHttpClient();
            String api = node.api().baseUrl();
            for (int i = 0; i < sent.size(); i++) {
                JsonNode s = sent.get(i);
                String board = s.get("board").asText();
                // the Java client's partitioner: statements of a board share one partition whichever language sent them
                assertEquals(
                        Utils.toPositive(Utils.murmur2(board.getBytes(StandardCharsets.UTF_8))) % PARTITIONS,
                        s.get("partition").asInt(),
                        board);
                String where = api + "/boards/" + board + "/deliveries?delivery_id="
                        + s.get("delivery_id").asText() + "&leaf_hash="
                        + s.get("leaf_hash").asText();
                HttpResponse<String> found;
                try {
                    found = Poll.until(
                            Duration.ofMinutes(1),
                            "statement " + s + " recorded",
                            () -> http.send(
                                    HttpRequest.newBuilder(URI.create(where)).build(),
                                    HttpResponse.BodyHandlers.ofString()),
                            r -> r.statusCode() == 200);
                } catch (AssertionError e) {
                    throw new AssertionError(e.getMessage() + "; dead letters: " + deadLetters(stack, topic), e);
                }
                long record = JSON.readTree(found.body()).get("record").asLong();
                assertEquals(i >= plain.size(), s.get("committed").asBoolean(), s.toString());
                if (i >= plain.size()) {
                    JsonNode view = JSON.readTree(get(http, api + "/boards/" + board + "/records/" + record));
                    String user = JSON.readTree(committed.get(i - plain.size()))
                            .get("user_id")
                            .asText();
                    assertEquals(user, view.path("user_id").asText(), "the log opened Node's sealed values: " + view);
                    for (String value : personalValues(committed.get(i - plain.size()))) {
                        assertTrue(
                                view.path("personal").toString().contains("\"value\":\"" + value + "\""),
                                value + " in " + view);
                    }
                }
            }

            // nothing refused: not the retry, not a committed statement
            assertEquals(List.of(), deadLetters(stack, topic));
            List<NoteVerifier> logKeys = List.of(NoteVerifier.parse(signer.verifierKey()));
            Map<String, Integer> expected = Map.of(plainBoard, plain.size() - 1, committedBoard, committed.size());
            for (Map.Entry<String, Integer> board : expected.entrySet()) {
                Poll.until(Duration.ofMinutes(1), board.getKey() + " checkpointed at " + board.getValue(), () -> {
                    // the signed checkpoint (what the verifier reads), not the tree's size
                    String note = get(http, api + "/boards/" + board.getKey() + "/checkpoint");
                    return Checkpoint.parse(SignedNote.parse(note).text()).size() == board.getValue();
                });
                Verification v = BoardVerifier.verify(
                        TlogFiles.api(api, board.getKey(), OBSERVER),
                        new VerifyOptions(
                                logKeys,
                                node.settings().originPrefix() + board.getKey(),
                                List.of(),
                                0,
                                List.of(),
                                board.getKey(),
                                List.of(),
                                null,
                                null),
                        (leaves, total, seconds) -> {});
                assertTrue(v.verified(), board + ": " + v.problems());
                assertEquals(board.getValue().longValue(), v.entries(), board.getKey());
                assertEquals(board.getValue().longValue(), v.signed(), "every entry sender-signed by Node: " + board);
            }
        }
    }

    /** The personal values of a statement given as JSON: its user ID and username, its body's IP address, country and error. */
    private static List<String> personalValues(String statement) throws IOException {
        JsonNode s = JSON.readTree(statement);
        List<String> out = new ArrayList<>();
        for (JsonNode v : List.of(
                s.path("user_id"),
                s.path("username"),
                s.path("body").path("ip"),
                s.path("body").path("country"),
                s.path("body").path("error"))) {
            if (v.isTextual()) {
                out.add(v.asText());
            }
        }
        return out;
    }

    /** The reasons of the events the projector refused. */
    private static List<String> deadLetters(Stack stack, String topic) {
        List<String> out = new ArrayList<>();
        for (ConsumerRecord<String, byte[]> r : TopicReader.readAll(stack.kafkaBootstrap(), topic + ".dlq")) {
            Header reason = r.headers().lastHeader("dlq.reason");
            Header message = r.headers().lastHeader("dlq.message");
            out.add((reason == null ? "?" : new String(reason.value(), StandardCharsets.UTF_8)) + ": "
                    + (message == null ? "" : new String(message.value(), StandardCharsets.UTF_8)));
        }
        return out;
    }

    private static String vote(String board, String deliveryId, String user, long time) {
        return "{\"board\":\"" + board + "\"," + (deliveryId == null ? "" : "\"delivery_id\":\"" + deliveryId + "\",")
                + "\"kind\":\"CAST_VOTE\",\"statement_timestamp\":" + time + ",\"sender_name\":\"node-voting\","
                + "\"user_id\":\"" + user + "\",\"election_id\":\"e1\",\"area_id\":\"a1\",\"ballot_id\":\"b-" + user
                + "\",\"body\":{\"type\":\"CastVote\",\"election_id\":\"e1\",\"pseudonym_hash\":\"AQI=\","
                + "\"cast_vote_hash\":\"AwQ=\",\"ip\":\"192.0.2.9\",\"country\":\"ES\"}}";
    }

    /** The projection's server, as a libpq URL with the producer's own login (it may only call personal_keys.sealing_key). */
    private static String keyStoreUrl(DatabaseLogin login, String user, String password) {
        Matcher m = Pattern.compile("jdbc:postgresql://([^/?]+)/([^?]+).*").matcher(login.jdbcUrl());
        assertTrue(m.matches(), login.jdbcUrl());
        return "postgres://" + user + ":" + password + "@" + m.group(1) + "/" + m.group(2);
    }

    private static String get(HttpClient http, String url) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(URI.create(url))
                        .header("Authorization", "Bearer " + OBSERVER)
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), url + ": " + r.body());
        return r.body();
    }

    /** What a command run in the example's directory printed and how it ended. */
    private record Run(int code, String out, String err) {}

    private static Run run(List<String> command, String input) throws Exception {
        Path out = Files.createTempFile("node-producer", ".out");
        Path err = Files.createTempFile("node-producer", ".err");
        Process p;
        try {
            p = new ProcessBuilder(command)
                    .directory(EXAMPLE.toFile())
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile())
                    .start();
        } catch (IOException e) {
            throw new IllegalStateException(
                    command.get(0) + " not found: this test needs Node 20 or later and npm on the PATH "
                            + "(.ci/run installs them: apt-get install nodejs npm)",
                    e);
        }
        try (var in = p.getOutputStream()) {
            in.write(input.getBytes(StandardCharsets.UTF_8));
        }
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IllegalStateException(command + " did not end within 5 minutes");
        }
        try {
            return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
        } finally {
            Files.delete(out);
            Files.delete(err);
        }
    }
}
