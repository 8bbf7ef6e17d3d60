package org.electorallog.launcher;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import org.electorallog.config.Configuration;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.producer.PublishResult;
import org.electorallog.schemas.BoardName;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.schemas.avro.StatementKind;
import org.electorallog.statement.LogStatements;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code electoral-log seal}: ends a board (issue 42). Publishes a BOARD_SEALED statement through
 * the producer, like every other statement, signed with the log's key (the only one the projector
 * takes a seal from, decision 130), so the seal is in Kafka and a replay seals at the same size; the projector makes it the board's last record, signs the sealed checkpoint at once and
 * refuses every later statement for the board. Its delivery ID is fixed per board
 * ({@code seal:<board>}), so the board keeps one seal however often the command runs. With {@code
 * --api} it reports the projected outcome, not Kafka's acknowledgement: a board already sealed is
 * said so and nothing is sent (a seal made now would state another time, and be refused
 * DELIVERY_ID_REUSED), else it waits until the query API reports the board sealed and prints the
 * sealed size and root, or fails naming what may have refused it (docs/operations.md, "Closing an
 * election").
 */
@Command(
        name = "seal",
        mixinStandardHelpOptions = true,
        description = "Seal a board: publish its BOARD_SEALED statement, after which it never grows.")
public final class SealCommand implements Callable<Integer> {
    @Option(names = "--board", required = true, description = "the board to seal")
    String board;

    @Option(names = "--sender-name", defaultValue = "back-office", description = "default ${DEFAULT-VALUE}")
    String senderName;

    @Option(names = "--election", description = "the election the board is for (the statement's election_id)")
    String election;

    @Option(
            names = "--api",
            paramLabel = "URL",
            description = "a query API to wait on until it reports the board sealed (e.g. http://127.0.0.1:8080)")
    String api;

    @Option(
            names = "--timeout",
            defaultValue = "120",
            description = "seconds to wait for the API's report; default ${DEFAULT-VALUE}")
    int timeoutSeconds;

    @Mixin
    ProducerOptions producer = new ProducerOptions();

    /** The environment the configuration is read from (tests give their own). */
    Map<String, String> environment = System.getenv();

    private final PrintStream out;
    private final PrintStream err;

    public SealCommand() {
        this(System.out, System.err);
    }

    SealCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    /** The seal statement of {@code board}: one per board, whoever sends it and however often. */
    public static Statement statement(String board, String senderName, String election, long nowMillis) {
        return Statement.newBuilder()
                .setBoard(board)
                .setDeliveryId(LogStatements.sealId(board))
                .setKind(StatementKind.BOARD_SEALED)
                .setStatementTimestamp(nowMillis)
                .setSenderName(senderName)
                .setSenderPublicKey(ByteBuffer.wrap(new byte[32])) // the producer puts its sender key here
                .setElectionId(election)
                .build();
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        if (!BoardName.isValid(board)) {
            err.println("seal: '" + board + "' is not a board name ([a-z0-9][a-z0-9._-]{0,63})");
            return 2;
        }
        if (LogStatements.reservedBoard(board)) {
            err.println("seal: board " + board + " is the log's own and is never sealed (decision 130)");
            return 2;
        }
        if (api != null) {
            // a sealed board is said so without sending anything: the seal statement made now would
            // state another time than the one the board keeps, and be refused DELIVERY_ID_REUSED
            String already = sealedLine();
            if (already != null) {
                out.println(already + " (already: nothing sent)");
                return 0;
            }
        }
        PublishResult sent;
        // the seal is the log's own statement: signed with the log's key, the only one the projector
        // takes a seal from (statement LogStatements, decision 130)
        try (ElectoralLogProducer p =
                producer.logsOwn(Configuration.load(environment)).build()) {
            sent = p.publish(statement(board, senderName, election, System.currentTimeMillis()))
                    .get();
        } catch (IllegalArgumentException e) {
            err.println("seal: " + e.getMessage());
            return 2;
        } catch (ExecutionException e) {
            err.println("seal: the seal was not acknowledged: " + e.getCause().getMessage());
            return 1;
        }
        out.printf(
                "seal of board %s acknowledged (delivery ID seal:%s, partition %d, offset %d)%n",
                board, board, sent.partition(), sent.offset());
        if (api == null) {
            out.println("GET /boards/" + board + " on the query API shows the sealed size and root once projected");
            return 0;
        }
        return awaitSealed();
    }

    private int awaitSealed() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(timeoutSeconds).toNanos();
        lastLook = "no answer yet";
        while (System.nanoTime() < deadline) {
            String line = sealedLine();
            if (line != null) {
                out.println(line);
                return 0;
            }
            Thread.sleep(250); // the next look at a board the projector has not reached yet
        }
        err.println("seal: " + api + " did not report board " + board + " sealed within " + timeoutSeconds
                + " s (last: " + lastLook + "); is the projector running, is its signing key this command's"
                + " (ELECTORAL_LOG_SIGNING_KEY), and is the board still taking statements?"
                + " `electoral-log dead-letters` shows refused statements");
        return 1;
    }

    /** What the last look at the board through the API found, for the message of a wait that ran out. */
    private String lastLook = "no answer yet";

    /** The client of the API's looks, made on the first. */
    private HttpClient http;

    /** The line saying the board is sealed, from the API's {@code GET /boards/{board}}; null while it is not. */
    private String sealedLine() throws IOException, InterruptedException {
        if (http == null) {
            http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        }
        URI uri = URI.create(api.replaceAll("/+$", "") + "/boards/" + URLEncoder.encode(board, StandardCharsets.UTF_8));
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            lastLook = r.statusCode() + " " + r.body();
            return null;
        }
        ObjectMapper json = new ObjectMapper();
        JsonNode sealed = json.readTree(r.body()).path("sealed");
        if (sealed.isMissingNode() || sealed.isNull()) {
            lastLook = "open at size " + json.readTree(r.body()).path("size").asLong();
            return null;
        }
        return String.format(
                "board %s sealed at size %d, root %s, at %s (record %d); its checkpoint at that size is its last",
                board,
                sealed.get("size").asLong(),
                sealed.get("root").asText(),
                sealed.get("at").asText(),
                sealed.get("record").asLong());
    }
}
