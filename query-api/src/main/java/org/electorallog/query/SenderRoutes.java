package org.electorallog.query;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.config.Setting;
import org.electorallog.schemas.BoardName;
import org.electorallog.statement.StatementKinds;
import org.electorallog.store.Projection;
import org.electorallog.store.Registry;
import org.electorallog.store.SenderGrant;
import org.electorallog.store.SenderGrants;

/**
 * The sender registry for administrators (store V9, docs/security.md "Writers"): list the grants,
 * grant a key kinds on a board, revoke a grant from a time on. Reads go through the query API's
 * read-only pool; writes through the registrar login ({@link QueryApiSettings#registrar}), which may
 * touch {@code sender_grants} only; without it the write endpoints answer 503 saying what to set.
 */
final class SenderRoutes implements AutoCloseable {
    private final Projection reads;
    private final Projection writes;

    SenderRoutes(Projection reads, DatabaseLogin registrar) {
        this.reads = reads;
        // the server starts even when the login is not there yet; a write then answers 500 with the cause logged
        this.writes = registrar == null ? null : Projection.openOnDemand(registrar, 2, "registrar");
    }

    /** A grant as the endpoints show it (keys base64, times ISO 8601). */
    record Grant(
            long grantId,
            String publicKey,
            String senderName,
            String board,
            List<String> kinds,
            String validFrom,
            String validUntil,
            String created,
            String createdBy,
            String revoked,
            String revokedBy,
            String revocationReason) {
        static Grant of(SenderGrant g) {
            return new Grant(
                    g.grantId(),
                    Base64.getEncoder().encodeToString(g.publicKey()),
                    g.senderName(),
                    g.board(),
                    g.kinds(),
                    text(g.validFrom()),
                    text(g.validUntil()),
                    text(g.created()),
                    g.createdBy(),
                    text(g.revoked()),
                    g.revokedBy(),
                    g.revocationReason());
        }

        private static String text(Instant t) {
            return t == null ? null : t.toString();
        }
    }

    /** GET /admin/senders. */
    record GrantList(List<Grant> grants) {}

    /** The body of POST /admin/senders. */
    record GrantRequest(
            String publicKey,
            String senderName,
            String board,
            List<String> kinds,
            String validFrom,
            String validUntil) {}

    /** The body of POST /admin/senders/{grant}/revocation. */
    record RevocationRequest(String at, String reason) {}

    List<Route> routes() {
        return List.of(
                        Route.get(
                                "/admin/senders",
                                GrantList.class,
                                List.of(),
                                List.of(200, 401, 403),
                                ctx -> ctx.json(new GrantList(list()))),
                        new Route(
                                HandlerType.POST,
                                "/admin/senders",
                                List.of(),
                                List.of(201, 400, 401, 403, 503),
                                Grant.class,
                                Route.JSON,
                                this::grant,
                                null,
                                Role.ANONYMOUS),
                        new Route(
                                HandlerType.POST,
                                "/admin/senders/{grant}/revocation",
                                List.of(),
                                List.of(200, 400, 401, 403, 404, 409, 503),
                                Grant.class,
                                Route.JSON,
                                this::revoke,
                                null,
                                Role.ANONYMOUS))
                .stream()
                .map(r -> r.forRole(Role.ADMIN))
                .toList();
    }

    private List<Grant> list() {
        return reads.registry().all().stream().map(Grant::of).toList();
    }

    private void grant(Context ctx) {
        GrantRequest body = body(ctx, GrantRequest.class);
        SenderGrants.Request request;
        try {
            request = new SenderGrants.Request(
                            base64("public_key", body.publicKey()),
                            body.senderName(),
                            body.board(),
                            body.kinds(),
                            instant("valid_from", body.validFrom()),
                            instant("valid_until", body.validUntil()),
                            who(ctx))
                    .checked(Instant.now(), StatementKinds.NAMES, BoardName::isValid);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(e.getMessage());
        }
        ctx.status(201).json(Grant.of(writer().add(request)));
    }

    private void revoke(Context ctx) {
        long id;
        try {
            id = Long.parseLong(ctx.pathParam("grant"));
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("grant must be a grant_id (a whole number), got '"
                    + QueryParameters.shown(ctx.pathParam("grant")) + "'");
        }
        RevocationRequest body = body(ctx, RevocationRequest.class);
        if (body.reason() == null || body.reason().isBlank()) {
            throw ApiException.badRequest("reason is required: say why the key is revoked (it is kept with the grant)");
        }
        Instant at;
        try {
            at = SenderGrants.revocationTime(instant("at", body.at()), Instant.now());
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(e.getMessage());
        }
        Registry registry = writer();
        SenderGrant done = registry.revoke(id, at, who(ctx), body.reason()).orElse(null);
        if (done == null) {
            SenderGrant g = registry.byId(id)
                    .orElseThrow(() -> ApiException.notFound("no sender grant " + id + " (GET /admin/senders)"));
            throw new ApiException(
                    Problem.Type.CONFLICT,
                    "grant " + id + " was already revoked at " + g.revoked() + " by " + g.revokedBy());
        }
        ctx.json(Grant.of(done));
    }

    private Registry writer() {
        if (writes == null) {
            throw new ApiException(
                    Problem.Type.UNAVAILABLE,
                    "this instance cannot write the sender registry: set " + Setting.REGISTRAR_DB_USER.env + " and "
                            + Setting.REGISTRAR_DB_PASSWORD.fileEnv()
                            + " (the electoral_log_registrar login), or use `electoral-log senders`");
        }
        return writes.registry();
    }

    private static <T> T body(Context ctx, Class<T> type) {
        try {
            T t = Responses.JSON.readValue(ctx.body(), type);
            if (t == null) {
                throw ApiException.badRequest("the request needs a JSON object body");
            }
            return t;
        } catch (JsonProcessingException e) {
            throw ApiException.badRequest("the body is not the JSON object this endpoint takes: "
                    + e.getOriginalMessage() + " (see /openapi.json)");
        }
    }

    private static byte[] base64(String name, String value) {
        if (value == null) {
            throw new IllegalArgumentException(name + " is required");
        }
        try {
            return Base64.getDecoder().decode(value.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(name + " is not standard base64");
        }
    }

    private static Instant instant(String name, String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            return Instant.parse(value.strip());
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(name + " must be an ISO 8601 UTC time like 2026-05-01T08:00:00Z");
        }
    }

    /** Who asked, as the registry records it: how they were recognised and their user, if any. */
    private static String who(Context ctx) {
        Caller c = ctx.attribute(Caller.ATTRIBUTE);
        if (c == null) {
            return "unknown";
        }
        return c.role().name().toLowerCase(Locale.ROOT) + " via " + c.via()
                + (c.userId() == null ? "" : " (" + c.userId() + ")");
    }

    @Override
    public void close() {
        if (writes != null) {
            writes.close();
        }
    }
}
