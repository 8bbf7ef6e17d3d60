package org.electorallog.query;

import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import java.io.IOException;
import java.io.Writer;
import java.util.List;
import org.electorallog.statement.StatementKinds;
import org.electorallog.store.RecordExports;

/**
 * The endpoints of analysts and administrators over a board's records: listings, counts and exports,
 * and their query plans. For the analyst role (plans: admin; the gate checks it; docs/security.md).
 */
final class AnalystRoutes {
    private final PublicReads reader;
    private final RecordListing listing;
    private final Cursor cursors;
    private final ExportSlots exports;
    private final ParquetExport parquet;

    AnalystRoutes(
            PublicReads reader, RecordListing listing, Cursor cursors, ExportSlots exports, ParquetExport parquet) {
        this.reader = reader;
        this.listing = listing;
        this.cursors = cursors;
        this.exports = exports;
        this.parquet = parquet;
    }

    /** The filters a count takes: a listing's parameters without sort, order, limit and cursor. */
    static final List<String> COUNT_PARAMETERS = ListingQuery.PARAMETERS.stream()
            .filter(p -> !List.of("sort", "order", "limit", "cursor").contains(p))
            .sorted()
            .toList();

    static final List<String> LISTING_PARAMETERS =
            ListingQuery.PARAMETERS.stream().sorted().toList();

    /** The routes, for analysts; the query plans for administrators. */
    List<Route> routes() {
        return all().stream()
                .map(r -> r.forRole(r.path().endsWith("/explain") ? Role.ADMIN : Role.ANALYST))
                .toList();
    }

    private List<Route> all() {
        List<Integer> listed = List.of(200, 400, 401, 403, 404);
        return List.of(
                Route.get(
                        "/admin/boards/{board}/records",
                        Responses.ListingPage.class,
                        LISTING_PARAMETERS,
                        listed,
                        ctx -> {
                            ListingQuery q = ListingQuery.parse(ctx.queryParamMap());
                            ctx.json(listing.list(RequestValues.board(ctx), q, ctx.queryParam("cursor"), cursors));
                        }),
                Route.get(
                        "/admin/boards/{board}/records/explain",
                        null,
                        LISTING_PARAMETERS,
                        listed,
                        ctx -> ctx.contentType(Route.JSON)
                                .result(listing.explain(
                                        RequestValues.board(ctx),
                                        ListingQuery.parse(ctx.queryParamMap()),
                                        ctx.queryParam("cursor"),
                                        cursors))),
                Route.get(
                                "/admin/boards/{board}/records/count",
                                Responses.Count.class,
                                COUNT_PARAMETERS,
                                listed,
                                ctx -> ctx.json(listing.count(RequestValues.board(ctx), countQuery(ctx))))
                        .withHint(COUNT_HINT),
                Route.get(
                                "/admin/boards/{board}/records/count/explain",
                                null,
                                COUNT_PARAMETERS,
                                listed,
                                ctx -> ctx.contentType(Route.JSON)
                                        .result(listing.explainCount(RequestValues.board(ctx), countQuery(ctx))))
                        .withHint(COUNT_HINT),
                Route.get(
                        "/admin/boards/{board}/counts",
                        Responses.Counts.class,
                        List.of(),
                        listed,
                        ctx -> ctx.json(reader.counts(RequestValues.board(ctx)))),
                new Route(
                        HandlerType.GET,
                        "/admin/boards/{board}/export.csv",
                        List.of(),
                        listed,
                        null,
                        "text/csv",
                        ctx -> exports.run(ctx, this::csv),
                        null,
                        Role.ANONYMOUS),
                new Route(
                        HandlerType.GET,
                        "/admin/boards/{board}/export.jsonl",
                        List.of(),
                        listed,
                        null,
                        "application/x-ndjson",
                        ctx -> exports.run(ctx, c -> jsonLines(c, false)),
                        null,
                        Role.ANONYMOUS),
                new Route(
                        HandlerType.GET,
                        "/admin/boards/{board}/votes.jsonl",
                        List.of(),
                        listed,
                        null,
                        "application/x-ndjson",
                        ctx -> exports.run(ctx, c -> jsonLines(c, true)),
                        null,
                        Role.ANONYMOUS),
                new Route(
                        HandlerType.GET,
                        "/admin/boards/{board}/export.parquet.zip",
                        ParquetExport.PARAMETERS,
                        listed,
                        null,
                        "application/zip",
                        ctx -> exports.run(ctx, parquet::run),
                        null,
                        Role.ANONYMOUS));
    }

    /** What a count's refusal of sort, order, limit or cursor says. */
    static final String COUNT_HINT = "a count takes filters only, not sort, order, limit or cursor";

    /** The filters of a count request (the route refused any other parameter). */
    private static ListingQuery countQuery(Context ctx) {
        return ListingQuery.parse(ctx.queryParamMap());
    }

    private void csv(Context ctx) throws IOException {
        String board = RequestValues.board(ctx);
        RecordListing.Manifest m = listing.manifest(board);
        ctx.contentType("text/csv; charset=utf-8");
        ctx.header("Content-Disposition", "attachment; filename=\"" + board + ".csv\"");
        Writer w = RecordListing.writer(ctx.outputStream());
        w.write(String.join(",", Responses.ListedRecord.CSV_COLUMNS) + "\r\n");
        listing.stream(board, m, 2500, RecordExports.ExportShape.FIELDS, row -> RecordListing.csv(w, row));
        w.flush();
    }

    /** JSON Lines: every record with its statement after a manifest line, or the cast votes alone. */
    private void jsonLines(Context ctx, boolean votesOnly) throws IOException {
        String board = RequestValues.board(ctx);
        RecordListing.Manifest m = listing.manifest(board);
        ctx.contentType("application/x-ndjson");
        Writer w = RecordListing.writer(ctx.outputStream());
        if (!votesOnly) {
            w.write(Responses.JSON.writeValueAsString(new Responses.ExportManifest(
                            new Responses.ExportManifest.Manifest(board, m.size(), m.root(), m.checkpoint())))
                    + "\n");
        }
        listing.stream(
                board,
                m,
                votesOnly ? 1000 : 2500,
                votesOnly
                        ? RecordExports.ExportShape.fieldsOf(StatementKinds.CAST_VOTE)
                        : RecordExports.ExportShape.STATEMENTS,
                row -> w.write(Responses.JSON.writeValueAsString(row) + "\n"));
        w.flush();
    }
}
