package org.electorallog.perf;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import org.electorallog.store.RecordSamples;

/**
 * The probes of {@code perf probe}: one request shape for each row of the reference load test's
 * query table, and the 200 random records of the board whose values they are built from.
 */
final class ProbeCatalogue {
    private final ProbeClient client;
    private final String board;
    private final long size;
    private final Random random = new Random(11);
    private final List<Map<String, String>> samples = new ArrayList<>();
    private String trustedCheckpoint;

    /** One probe: a name, the reference row it answers, and a request built from a random sample. */
    record Probe(String name, String reference, Function<Map<String, String>, String[]> request) {}

    ProbeCatalogue(ProbeClient client, String board, long size) {
        this.client = client;
        this.board = board;
        this.size = size;
    }

    /** The samples, once {@link #sample} has run; sample 0 is the cold runs'. */
    List<Map<String, String>> samples() {
        return samples;
    }

    /** 200 random records of the board: their users, usernames, ballots and times. */
    void sample() throws Exception {
        short id = client.boardId();
        while (samples.size() < 200) {
            long at = (long) (random.nextDouble() * size);
            RecordSamples.Sample r = client.projection()
                    .statement(reader -> reader.sample(id, at))
                    .orElse(null);
            if (r != null && r.ballotId() != null) {
                Map<String, String> s = new LinkedHashMap<>();
                s.put("id", Long.toString(r.id()));
                s.put("user", r.userId());
                s.put("username", r.username());
                s.put("created", r.created().toString());
                s.put("statement", r.statementTime().toString());
                s.put("ballot", r.ballotId());
                s.put("election", r.electionId());
                samples.add(s);
            }
        }
        trustedCheckpoint = client.projection()
                .statement(r -> r.checkpointAtOrBelow(id, size / 2))
                .orElseThrow(
                        () -> new IllegalStateException("no checkpoint at or below size " + size / 2 + " to trust"))
                .note();
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private String[] admin(String query) {
        return new String[] {"GET", "/admin/boards/" + board + "/records" + query};
    }

    private String[] count(String query) {
        return new String[] {"GET", "/admin/boards/" + board + "/records/count" + query};
    }

    private String minute(String instant) {
        return "from=" + instant + "&to=" + Instant.parse(instant).plusSeconds(60);
    }

    /** Every row's probe, built on the samples. */
    List<Probe> probes() {
        List<Probe> p = new ArrayList<>();
        p.add(new Probe("newest page, ID order", "Newest page, ID order (admin default)", s -> admin("")));
        p.add(new Probe("count of the whole board", "Count of the whole board", s -> count("")));
        p.add(new Probe("sort by created", "Sort by created or user ID", s -> admin("?sort=created")));
        p.add(new Probe("sort by user ID", "Sort by created or user ID", s -> admin("?sort=user_id")));
        p.add(new Probe("sort by statement time", "Sort by statement timestamp", s -> admin("?sort=statement_time")));
        p.add(new Probe("sort by kind", "Sort by statement kind", s -> admin("?sort=kind")));
        p.add(new Probe("page at size/2 by ID range", "Page at offset size/2", s -> admin("?to_id=" + size / 2)));
        p.add(new Probe(
                "page deep in the board by cursor",
                "Page at offset size/2",
                s -> admin("?to_id=" + (size / 2 + 100) + "&cursor=" + deepCursor())));
        p.add(new Probe(
                "filter by user ID, page",
                "Filter by user ID, page and count",
                s -> admin("?user_id=" + enc(s.get("user")))));
        p.add(new Probe(
                "filter by user ID, count",
                "Filter by user ID, page and count",
                s -> count("?user_id=" + enc(s.get("user")))));
        p.add(new Probe(
                "filter by username, page",
                "Filter by username, page + count",
                s -> admin("?username=" + enc(s.get("username")))));
        p.add(new Probe(
                "filter by username, count",
                "Filter by username, page + count",
                s -> count("?username=" + enc(s.get("username")))));
        p.add(new Probe("filter by kind, page", "Filter by kind, page / count", s -> admin("?kind=CAST_VOTE")));
        p.add(new Probe("filter by kind, count", "Filter by kind, page / count", s -> count("?kind=CAST_VOTE")));
        p.add(new Probe(
                "filter by created minute, page",
                "Filter by created minute, page / count",
                s -> admin("?"
                        + minute(s.get("created"))
                                .replace("from=", "created_from=")
                                .replace("to=", "created_to="))));
        p.add(new Probe(
                "filter by created minute, count",
                "Filter by created minute, page / count",
                s -> count("?"
                        + minute(s.get("created"))
                                .replace("from=", "created_from=")
                                .replace("to=", "created_to="))));
        p.add(new Probe(
                "filter by statement minute, page",
                "Filter by statement-timestamp minute, page / count",
                s -> admin("?"
                        + minute(s.get("statement"))
                                .replace("from=", "statement_time_from=")
                                .replace("to=", "statement_time_to="))));
        p.add(new Probe(
                "filter by statement minute, count",
                "Filter by statement-timestamp minute, page / count",
                s -> count("?"
                        + minute(s.get("statement"))
                                .replace("from=", "statement_time_from=")
                                .replace("to=", "statement_time_to="))));
        p.add(new Probe(
                "filter by ballot ID, page",
                "Filter by ballot ID, page / count",
                s -> admin("?ballot_id=" + s.get("ballot"))));
        p.add(new Probe(
                "filter by ballot ID, count",
                "Filter by ballot ID, page / count",
                s -> count("?ballot_id=" + s.get("ballot"))));
        p.add(new Probe(
                "election-scoped list, page",
                "Election-scoped list (API only), page / count",
                s -> admin("?visible_elections=election-1,election-3")));
        p.add(new Probe(
                "election-scoped list, count",
                "Election-scoped list (API only), page / count",
                s -> count("?visible_elections=election-1,election-3")));
        p.add(new Probe("count of records with a user", "Count of records with a user", s -> count("?with_user=true")));
        p.add(new Probe(
                "ballot locator, count of the election's votes",
                "Ballot locator: count of the election's votes",
                s -> count("?kind=CAST_VOTE&election_id=" + s.get("election"))));
        p.add(new Probe("ballot locator, page", "Ballot locator: page, own ballot", s -> new String[] {
            "GET", "/boards/" + board + "/ballots?user_id=" + enc(s.get("user")) + "&election_id=" + s.get("election")
        }));
        p.add(new Probe("CSV export batch after an ID (2,500)", "CSV export batch after an ID (2,500)", s ->
                new String[] {"SQL", "csv", s.get("id")}));
        p.add(new Probe("export batch at size/2 (2,500)", "PDF report batch at offset size/2 (2,500)", s ->
                new String[] {"SQL", "export", Long.toString(size / 2)}));
        p.add(new Probe("cast-vote export batch after an ID (1,000)", "Cast-vote export batch after an ID (1,000)", s ->
                new String[] {"SQL", "votes", s.get("id")}));
        p.add(new Probe("current checkpoint", "Current checkpoint", s ->
                new String[] {"GET", "/boards/" + board + "/checkpoint"}));
        p.add(new Probe("record proof, random record", "Record proof, random record", s ->
                new String[] {"GET", "/boards/" + board + "/records/" + s.get("id") + "/proof"}));
        p.add(new Probe("consistency proof", "Consistency proof", s -> new String[] {
            "GET", "/boards/" + board + "/consistency?from=" + Math.max(1, Long.parseLong(s.get("id")))
        }));
        p.add(new Probe(
                "record proof from a trusted checkpoint",
                "Record proof from a trusted checkpoint, cached",
                s -> new String[] {
                    "POST",
                    "/boards/" + board + "/records/" + Math.min(Long.parseLong(s.get("id")), size / 4) + "/proof",
                    trustedCheckpoint
                }));
        return p;
    }

    private String deepCursor() {
        try {
            JsonNode page = ProbeRun.JSON.readTree(client.send(admin("?to_id=" + (size / 2 + 100)))[1]);
            return page.get("next_cursor").asText();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
