package org.electorallog.perf;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.electorallog.query.QueryApi;
import org.electorallog.statement.StatementKinds;
import org.electorallog.store.BoardTips;
import org.electorallog.store.BoundStatement;
import org.electorallog.store.Projection;
import org.electorallog.store.RecordExports;
import org.electorallog.store.Records;

/**
 * How {@code perf probe} sends a probe's request and reads its plan: HTTP to the query API with
 * keep-alive, an export batch on the API's export pool without HTTP, EXPLAIN of the statement.
 */
final class ProbeClient {
    private final PerfEnvironment env;
    private final QueryApi api;
    private final String board;
    private final long size;
    private Short boardId;

    ProbeClient(PerfEnvironment env, String board, long size) {
        this.env = env;
        this.api = env.api();
        this.board = board;
        this.size = size;
    }

    /** The perf environment's projection. */
    Projection projection() {
        return env.db;
    }

    /** Milliseconds of one request; a failed request is an error, never a timing. */
    double time(String[] request) throws Exception {
        long t = System.nanoTime();
        String[] r = send(request);
        double ms = (System.nanoTime() - t) / 1e6;
        if (!r[0].equals("200")) {
            throw new IllegalStateException(String.join(" ", request) + " answered " + r[0] + ": " + r[1]);
        }
        return ms;
    }

    String[] send(String[] request) throws Exception {
        if (request[0].equals("SQL")) {
            return sql(request[1], Long.parseLong(request[2]));
        }
        HttpURLConnection c = (HttpURLConnection)
                URI.create(api.baseUrl() + request[1]).toURL().openConnection();
        // the admin listing, and the ballot locator for any user (observers and above, docs/security.md);
        // checkpoints and proofs are asked anonymously, as voters and observers' clients do
        if (request[1].startsWith("/admin/") || request[1].contains("/ballots?")) {
            c.setRequestProperty("Authorization", "Bearer " + PerfEnvironment.ADMIN_TOKEN);
        }
        if (request[0].equals("POST")) {
            c.setRequestMethod("POST");
            c.setDoOutput(true);
            try (OutputStream out = c.getOutputStream()) {
                out.write(request[2].getBytes(StandardCharsets.UTF_8));
            }
        }
        int status = c.getResponseCode();
        // reading the body to its end returns the connection to the keep-alive cache
        try (InputStream in = status >= 400 ? c.getErrorStream() : c.getInputStream()) {
            String body = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return new String[] {Integer.toString(status), body};
        }
    }

    /**
     * One export batch as the export runs it ({@link RecordExports#exportBatch}), without HTTP: the CSV's
     * fields with leaf hashes from the tiles, the full export's records with statements, or the cast
     * votes' fields. On the query API's export pool, where the export runs: a statement planned
     * for its parameters each time (decision 20). On a pool that keeps PostgreSQL's plans, the cast
     * votes' batch switched after five runs to a generic plan that walks the primary key of each
     * partition (its board_id and kind unknown) and filters, 50 ms where the export takes 1.
     */
    private String[] sql(String which, long from) throws Exception {
        short id = boardId();
        int[] n = {0};
        api.exportPool()
                .statement(r -> r.<RuntimeException>exportBatch(
                        id,
                        board,
                        from,
                        size,
                        batchOf(which),
                        shapeOf(which),
                        (rec, leaf) -> n[0] += leaf.length > 0 ? 1 : 0));
        return new String[] {"200", Integer.toString(n[0])};
    }

    private static RecordExports.ExportShape shapeOf(String which) {
        return switch (which) {
            case "csv" -> RecordExports.ExportShape.FIELDS;
            case "export" -> RecordExports.ExportShape.STATEMENTS;
            case "votes" -> RecordExports.ExportShape.fieldsOf(StatementKinds.CAST_VOTE);
            default -> throw new IllegalArgumentException("no export " + which);
        };
    }

    private static int batchOf(String which) {
        return which.equals("votes") ? 1000 : 2500;
    }

    /** The board's ID, read once (an export knows it from its manifest). */
    short boardId() {
        if (boardId == null) {
            boardId = env.db
                    .statement(r -> r.board(board))
                    .orElseThrow(() -> new IllegalStateException("there is no board " + board))
                    .id();
        }
        return boardId;
    }

    /** The plan of a probe: the listing and count explain endpoints, or EXPLAIN of the statement. */
    String plan(String name, String[] request, Map<String, String> firstSample) throws Exception {
        if (request[0].equals("GET") && request[1].startsWith("/admin/boards/")) {
            String path = request[1].contains("/records/count")
                    ? request[1].replace("/records/count", "/records/count/explain")
                    : request[1].replace("/records", "/records/explain");
            String[] r = send(new String[] {"GET", path});
            return r[0].equals("200") ? r[1] : null;
        }
        String sql;
        List<Object> params = new ArrayList<>();
        short id = boardId();
        if (request[0].equals("SQL")) {
            // the batch's records page; the CSV and cast-vote batches' tile range is in the plan tests
            RecordExports.ExportShape shape = shapeOf(request[1]);
            sql = shape.sql();
            params.add(id);
            if (shape.kind() != null) {
                params.add(shape.kind());
            }
            params.addAll(List.of(Long.parseLong(request[2]), size, batchOf(request[1])));
        } else if (name.equals("current checkpoint")) {
            sql = BoardTips.TIP_SQL; // the board, its size, checkpoint and cosignatures
            params.add(board);
        } else if (name.equals("ballot locator, page")) {
            Map<String, String> s = firstSample;
            sql = Records.BALLOTS_SQL;
            params.addAll(Arrays.asList(
                    id, StatementKinds.CAST_VOTE, s.get("user"), s.get("election"), Long.MAX_VALUE, null, null, 100));
        } else {
            return null; // proofs: the current checkpoint's statement and one tile query, see the plan tests
        }
        BoundStatement statement = new BoundStatement(sql, params);
        return env.db.statement(r -> r.explain(statement));
    }
}
