package org.electorallog.query;

import io.javalin.http.HandlerType;
import java.util.List;
import org.electorallog.audit.IncrementalVerifier;

/**
 * The endpoints of administrators: full audits started over HTTP and the incremental verifier's
 * status. For the admin role (the gate checks it; docs/security.md).
 */
final class AdminRoutes {
    private final AdminAudits audits;
    private final IncrementalVerifier verifier;

    AdminRoutes(AdminAudits audits, IncrementalVerifier verifier) {
        this.audits = audits;
        this.verifier = verifier;
    }

    /** The routes, for administrators. */
    List<Route> routes() {
        return all().stream().map(r -> r.forRole(Role.ADMIN)).toList();
    }

    private List<Route> all() {
        return List.of(
                new Route(
                        HandlerType.POST,
                        "/admin/boards/{board}/audits",
                        List.of(),
                        List.of(202, 400, 401, 403),
                        Responses.AuditStarted.class,
                        Route.JSON,
                        ctx -> {
                            String id = audits.start(RequestValues.board(ctx));
                            ctx.status(202).json(new Responses.AuditStarted(id, "/admin/audits/" + id));
                        },
                        null,
                        Role.ANONYMOUS),
                Route.get(
                        "/admin/audits/{id}",
                        Responses.AuditStatus.class,
                        List.of(),
                        List.of(200, 401, 403, 404),
                        ctx -> ctx.json(audits.status(ctx.pathParam("id")))),
                Route.get(
                        "/admin/verifier",
                        IncrementalVerifier.Status.class,
                        List.of(),
                        List.of(200, 401, 403, 404),
                        ctx -> {
                            if (verifier == null) {
                                throw ApiException.notFound("the incremental verifier is not running on this instance");
                            }
                            ctx.json(verifier.status());
                        }));
    }
}
