package org.electorallog.producer;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether a statement Kafka acknowledged is recorded on its board (issue 61 item 7): an
 * acknowledgement says the topic holds it, not that the projector took it (a board sealed before it,
 * the sender registry, a delivery ID another statement holds, a name only the log writes: each is a
 * dead letter after the ack). Asks a query API for the record holding the statement's delivery ID
 * with the statement's leaf hash ({@code GET /boards/{board}/deliveries?delivery_id=&leaf_hash=},
 * anonymous, in the proofs rate class), so a sender that must know, such as a back office closing a
 * ceremony or a voting service before it hands out a receipt, waits for the record, not the ack.
 * One request a look: meant for the statements that matter one by one, not for a bulk load.
 */
public final class Recordings {
    private static final Pattern RECORD = Pattern.compile("\"record\"\\s*:\\s*(\\d+)");

    /** Where a statement was recorded: its board and the record's index there. */
    public record Recorded(String board, String deliveryId, long record) {}

    private final String api;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** {@code apiBaseUrl}: the query API, e.g. {@code https://log.example}. */
    public Recordings(String apiBaseUrl) {
        this.api = apiBaseUrl.replaceAll("/+$", "");
    }

    /**
     * The record holding {@code sent} on its board, looked up at once; empty while it is not there
     * (not projected yet, or refused: the dead-letter topic says why). Throws on an answer that is
     * neither (the API unreachable, a 4xx such as a 429 of the rate limit, a 5xx), naming it.
     */
    public Optional<Recorded> look(PublishResult sent) throws IOException, InterruptedException {
        URI uri = URI.create(api + "/boards/" + URLEncoder.encode(sent.board(), StandardCharsets.UTF_8)
                + "/deliveries?delivery_id=" + URLEncoder.encode(sent.deliveryId(), StandardCharsets.UTF_8)
                + "&leaf_hash=" + Base64.getUrlEncoder().withoutPadding().encodeToString(sent.leafHash()));
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 404) {
            return Optional.empty();
        }
        Matcher m = RECORD.matcher(r.body());
        if (r.statusCode() != 200 || !m.find()) {
            throw new IOException(api + " answered " + r.statusCode() + " to " + uri.getRawPath() + ": "
                    + r.body().substring(0, Math.min(300, r.body().length())));
        }
        return Optional.of(new Recorded(sent.board(), sent.deliveryId(), Long.parseLong(m.group(1))));
    }

    /**
     * The record holding {@code sent}, looking every 250 ms until {@code timeout} has passed; empty
     * when it is not recorded by then (refused, or the projector lags: {@code electoral-log
     * dead-letters --board B} tells which).
     */
    public Optional<Recorded> await(PublishResult sent, Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Optional<Recorded> found = look(sent);
            if (found.isPresent() || System.nanoTime() >= deadline) {
                return found;
            }
            Thread.sleep(250); // the next look at a projection that has not reached the statement yet
        }
    }
}
