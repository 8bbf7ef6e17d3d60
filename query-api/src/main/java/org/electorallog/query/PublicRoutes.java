package org.electorallog.query;

import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import java.util.ArrayList;
import java.util.List;
import org.electorallog.core.TilePath;
import org.electorallog.core.TlogPolicy;

/**
 * The endpoints anyone may call, for public verifiability: boards, signed checkpoints, C2SP
 * tlog-tiles tiles and entry bundles ({@link BundleRoutes}), RFC 9162 proofs and tlog-proof bundles,
 * single records and the ballot locator.
 * No authorization check (docs/security.md says which of these move behind roles).
 */
final class PublicRoutes {
    private final PublicReads reader;
    private final ProofService proofs;
    private final BallotLocator ballots;
    private final Cursor cursors;
    private final AccessSettings access;
    private final BundleRoutes bundles;
    private final HeadLinkService headLinks;
    private final TlogPolicy policy;

    PublicRoutes(
            PublicReads reader,
            ProofService proofs,
            HeadLinkService headLinks,
            BallotLocator ballots,
            Cursor cursors,
            AccessSettings access,
            TlogPolicy policy) {
        this.policy = policy;
        this.reader = reader;
        this.proofs = proofs;
        this.headLinks = headLinks;
        this.ballots = ballots;
        this.cursors = cursors;
        this.access = access;
        this.bundles = new BundleRoutes(reader);
    }

    List<Route> routes() {
        List<Route> out = new ArrayList<>(List.of(
                Route.get(
                        "/boards",
                        Responses.BoardList.class,
                        List.of(),
                        List.of(200),
                        ctx -> ctx.json(reader.boards())),
                Route.get(
                        "/boards/{board}",
                        Responses.BoardSummary.class,
                        List.of(),
                        List.of(200, 400, 404),
                        ctx -> ctx.json(reader.board(RequestValues.board(ctx)))),
                new Route(
                        HandlerType.GET,
                        "/boards/{board}/checkpoint",
                        List.of("witnessed", "from"),
                        List.of(200, 400, 404),
                        null,
                        Route.TEXT,
                        this::checkpoint,
                        null,
                        Role.ANONYMOUS),
                new Route(
                        HandlerType.GET,
                        "/boards/{board}/policy",
                        List.of(),
                        List.of(200, 400, 404),
                        null,
                        Route.TEXT,
                        this::policy,
                        null,
                        Role.ANONYMOUS)));
        // entry and signature bundles before the tile route, which would take tile/entries/ too
        out.addAll(bundles.routes());
        out.addAll(List.of(
                new Route(
                        HandlerType.GET,
                        "/boards/{board}/tile/<path>",
                        List.of(),
                        List.of(200, 400, 403, 404),
                        null,
                        "application/octet-stream",
                        this::tile,
                        null,
                        Role.ANONYMOUS),
                Route.get(
                        "/boards/{board}/records/{id}",
                        Responses.RecordBody.class,
                        List.of(),
                        List.of(200, 400, 401, 403, 404),
                        this::record),
                Route.get(
                        "/boards/{board}/records/{id}/proof",
                        Responses.InclusionProof.class,
                        List.of("size"),
                        List.of(200, 400, 404, 429),
                        ctx -> ctx.json(proofs.inclusion(
                                RequestValues.board(ctx),
                                RequestValues.id(ctx),
                                RequestValues.optionalNumber(ctx, "size")))),
                Route.get(
                        "/boards/{board}/proof",
                        Responses.InclusionProof.class,
                        List.of("leaf_hash", "size"),
                        List.of(200, 400, 404, 429),
                        ctx -> ctx.json(proofs.inclusionOfLeaf(
                                RequestValues.board(ctx),
                                RequestValues.hash(ctx, "leaf_hash"),
                                RequestValues.optionalNumber(ctx, "size")))),
                new Route(
                        HandlerType.POST,
                        "/boards/{board}/records/{id}/proof",
                        List.of(),
                        List.of(200, 400, 404, 409, 413, 429),
                        Responses.TrustedProof.class,
                        Route.JSON,
                        this::proofFromTrusted,
                        null,
                        Role.ANONYMOUS),
                new Route(
                        HandlerType.GET,
                        "/boards/{board}/records/{id}/proof-bundle",
                        List.of(),
                        List.of(200, 400, 404, 429),
                        null,
                        Route.TEXT,
                        this::bundle,
                        null,
                        Role.ANONYMOUS),
                Route.get(
                        "/boards/{board}/heads-link",
                        HeadLinkService.HeadsLink.class,
                        List.of(),
                        List.of(200, 400, 404, 429),
                        ctx -> ctx.json(headLinks.latest(RequestValues.board(ctx)))),
                Route.get(
                        "/boards/{board}/deliveries",
                        Responses.Delivery.class,
                        List.of("delivery_id", "leaf_hash"),
                        List.of(200, 400, 404, 429),
                        ctx -> ctx.json(proofs.delivery(
                                RequestValues.board(ctx),
                                RequestValues.deliveryId(ctx),
                                RequestValues.hash(ctx, "leaf_hash")))),
                Route.get(
                        "/boards/{board}/consistency",
                        Responses.ConsistencyProof.class,
                        List.of("from", "to"),
                        List.of(200, 400, 404, 429),
                        this::consistency),
                Route.get(
                                "/boards/{board}/ballots",
                                Responses.BallotPage.class,
                                List.of("user_id", "election_id", "ballot_id", "limit", "cursor"),
                                List.of(200, 400, 401, 403, 404),
                                this::ballots)
                        .forRole(Role.VOTER)));
        return out;
    }

    /**
     * The latest checkpoint with its witness cosignatures; {@code ?witnessed=true}: the latest one a
     * quorum of witnesses cosigned (what voters and tlog-proof bundles rely on, docs/witnesses.md);
     * {@code ?from=N}: the board's history, its first checkpoint at or past size N (issue 69: what
     * {@code verify-board --report} charts over time, each one checked against the rebuilt tree).
     */
    private void checkpoint(Context ctx) {
        String witnessed = ctx.queryParam("witnessed");
        String from = ctx.queryParam("from");
        if (from != null) {
            if (witnessed != null) {
                throw ApiException.badRequest("give witnessed or from, not both");
            }
            String note = reader.checkpointFrom(RequestValues.board(ctx), QueryParameters.number("from", from));
            ctx.header("Cache-Control", "no-cache"); // cosignatures may still join it
            ctx.contentType("text/plain; charset=utf-8").result(note);
            return;
        }
        if (witnessed != null && !witnessed.equals("true") && !witnessed.equals("false")) {
            throw ApiException.badRequest("witnessed must be true or false, got '" + witnessed + "'");
        }
        String board = RequestValues.board(ctx);
        String note =
                "true".equals(witnessed) ? reader.latestWitnessedCheckpoint(board) : reader.latestCheckpoint(board);
        ctx.header("Cache-Control", "no-cache, max-age=2");
        ctx.contentType("text/plain; charset=utf-8").result(note);
    }

    /**
     * The rule the board's checkpoints are witnessed by, as a C2SP tlog-policy file (issue 68 item
     * 3): this API's log keys (ELECTORAL_LOG_LOG_KEYS), its witnesses and quorum, so a verifier years
     * later has the rule beside the proof (decision 143). 404 for a board without a checkpoint.
     */
    private void policy(Context ctx) {
        reader.latestCheckpoint(RequestValues.board(ctx)); // the board, as its checkpoint route finds it
        ctx.header("Cache-Control", "no-cache");
        ctx.contentType("text/plain; charset=utf-8").result(policy.text());
    }

    private void tile(Context ctx) {
        String board = RequestValues.board(ctx);
        TilePath t;
        try {
            t = TilePath.parse("tile/" + ctx.pathParam("path"));
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("not a C2SP tlog-tiles path: " + e.getMessage());
        }
        if (t.entries()) {
            // the entries route answers these; this one never hands out statements
            throw ApiException.badRequest("entry bundles are served at /boards/{board}/tile/entries/<N>[.p/<W>]");
        }
        immutable(ctx, reader.tile(board, t.level(), t.index(), t.width()));
    }

    /** A tile or bundle (full, or partial at an exact width) never changes once it exists. */
    private static void immutable(Context ctx, byte[] body) {
        ctx.header("Cache-Control", "public, max-age=31536000, immutable");
        ctx.contentType("application/octet-stream").result(body);
    }

    /**
     * One record: in full for observers and above, and for a voter whose own record it is; for
     * anyone else only a record of a public kind, with the public fields alone and no statement.
     */
    private void record(Context ctx) {
        Caller caller = Gate.caller(ctx);
        Responses.RecordBody r = reader.record(RequestValues.board(ctx), RequestValues.id(ctx));
        if (caller.covers(Role.OBSERVER)
                || (caller.role() == Role.VOTER
                        && caller.userId() != null
                        && caller.userId().equals(r.fields().userId()))) {
            ctx.json(r);
        } else if (access.publicKinds().contains(r.kind())) {
            ctx.json(r.publicView(access.publicFields()));
        } else if (!caller.authenticated()) {
            throw Authenticator.unauthorized(
                    ctx, "this record is not public on this log; observers and the voter it belongs to may read it");
        } else {
            throw new ApiException(
                    Problem.Type.FORBIDDEN, "this record is not yours, and it is not public on this log");
        }
    }

    private void proofFromTrusted(Context ctx) {
        String board = RequestValues.board(ctx);
        long id = RequestValues.id(ctx);
        String body = ctx.body();
        if (body.isBlank()) {
            throw ApiException.badRequest("the body must be the signed checkpoint note you trust");
        }
        ctx.json(proofs.fromTrusted(board, id, body));
    }

    private void bundle(Context ctx) {
        String bundle = proofs.bundle(RequestValues.board(ctx), RequestValues.id(ctx));
        ctx.header("Content-Disposition", "inline; filename=\"record.tlog-proof\"");
        ctx.contentType("text/plain; charset=utf-8").result(bundle);
    }

    private void consistency(Context ctx) {
        String from = ctx.queryParam("from");
        if (from == null) {
            throw ApiException.badRequest("from is required: the size of the tree you already trust");
        }
        ctx.json(proofs.consistency(
                RequestValues.board(ctx),
                QueryParameters.number("from", from),
                RequestValues.optionalNumber(ctx, "to")));
    }

    /**
     * The ballot locator: a voter's own cast votes with the tlog-proof bundle of each one already in
     * a checkpoint. A voter asks for their own user ID (the default); observers and above for any.
     */
    private void ballots(Context ctx) {
        String board = RequestValues.board(ctx);
        Caller caller = Gate.caller(ctx);
        String asked = RequestValues.text(ctx, "user_id", !(caller.role() == Role.VOTER));
        String user = asked;
        if (caller.role() == Role.VOTER) {
            if (caller.userId() == null) {
                throw new ApiException(Problem.Type.FORBIDDEN, "these voter credentials name no user ID");
            }
            if (asked != null && !asked.equals(caller.userId())) {
                throw new ApiException(Problem.Type.FORBIDDEN, "a voter may look up their own ballots only");
            }
            user = caller.userId();
        }
        String election = RequestValues.text(ctx, "election_id", true);
        String ballot = RequestValues.text(ctx, "ballot_id", false);
        int limit = RequestValues.limit(ctx);
        String query = "ballots\u0000" + board + "\u0000" + user + "\u0000" + election + "\u0000" + ballot;
        String cursor = ctx.queryParam("cursor");
        Long before = cursor == null ? null : cursors.decode(query, cursor);
        List<Responses.Ballot> page = ballots.ballots(board, user, election, ballot, before, limit);
        ctx.json(new Responses.BallotPage(
                page,
                page.size() < limit
                        ? null
                        : cursors.encode(query, page.get(page.size() - 1).id())));
    }
}
