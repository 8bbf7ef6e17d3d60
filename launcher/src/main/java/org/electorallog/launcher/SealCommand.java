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
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.producer.PublishResult;
import org.electorallog.schemas.BoardName;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.schemas.avro.StatementKind;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code electoral-log seal}: ends a board (issue 42). Publishes a BOARD_SEALED statement through
 * the producer, like every other statement, so the seal is in Kafka and a replay seals at the same
 * size; the projector makes it the board's last record, signs the sealed checkpoint at once and
 * refuses every later statement for the board. Its delivery ID is fixed per board
 * ({@code seal:<board>}): running the command again (after a timeout, say) sends the same
 * statement, which the board keeps once. With {@code --api} it waits until the query API reports
 * the board sealed and prints the sealed size and root (docs/operations.md, "Closing an election").
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
                .setDeliveryId("seal:" + board)
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
        PublishResult sent;
        try (ElectoralLogProducer p = producer.builder().build()) {
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
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        URI uri = URI.create(api.replaceAll("/+$", "") + "/boards/" + URLEncoder.encode(board, StandardCharsets.UTF_8));
        long deadline = System.nanoTime() + Duration.ofSeconds(timeoutSeconds).toNanos();
        ObjectMapper json = new ObjectMapper();
        String last = "no answer yet";
        while (System.nanoTime() < deadline) {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() == 200) {
                JsonNode sealed = json.readTree(r.body()).path("sealed");
                if (!sealed.isMissingNode() && !sealed.isNull()) {
                    out.printf(
                            "board %s sealed at size %d, root %s, at %s (record %d); its checkpoint at that size is its last%n",
                            board,
                            sealed.get("size").asLong(),
                            sealed.get("root").asText(),
                            sealed.get("at").asText(),
                            sealed.get("record").asLong());
                    return 0;
                }
                last = "open at size " + json.readTree(r.body()).path("size").asLong();
            } else {
                last = r.statusCode() + " " + r.body();
            }
            Thread.sleep(250); // the next look at a board the projector has not reached yet
        }
        err.println("seal: " + api + " did not report board " + board + " sealed within " + timeoutSeconds
                + " s (last: " + last + "); is the projector running, and does the sender registry allow BOARD_SEALED"
                + " for this sender? `electoral-log dead-letters` shows refused statements");
        return 1;
    }
}
