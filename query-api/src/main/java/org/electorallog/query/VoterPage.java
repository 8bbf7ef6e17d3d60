package org.electorallog.query;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.electorallog.core.NoteVerifier;
import org.electorallog.core.WitnessPolicy;

/**
 * The voter page (issue 18, docs/witnesses.md "The voter page"): a static page whose own script, in
 * the voter's browser, fetches the latest witnessed checkpoint, verifies the log's signature and the
 * witnesses' cosignatures with WebCrypto Ed25519 (C2SP signed-note, tlog-cosignature), fetches the
 * inclusion proof of the voter's record and verifies it (RFC 9162 section 2.1.3.2). Nothing comes
 * from a third party (the Content-Security-Policy allows this origin only) and nothing is built at
 * run time: the files are served as they are in the jar.
 *
 * <p>{@code /voter/messages.json} holds the message catalogues of the languages the election offers
 * (issue 69, {@link VoterLanguages}): the page speaks the first of the browser's languages among them.
 *
 * <p>{@code /voter/trust.json} pre-fills the keys the page checks against from this server's own
 * configuration; the page shows them and says to compare them with the keys the election authority
 * published, since a dishonest server could serve other keys too.
 */
final class VoterPage {
    /** This origin only: no CDN, no inline script, no framing. */
    static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
            + "img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    private static final String HTML = resource("/voter/voter.html");
    private static final String I18N = resource("/voter/i18n.js");
    private static final String SCRIPT = resource("/voter/voter.js");
    private static final String PERSONAL = resource("/voter/personal.js");
    private static final String HEADS = resource("/voter/heads.js");
    private static final String TILES = resource("/voter/tiles.js");
    private static final String POST_QUANTUM = resource("/voter/pq.js");
    private static final String STYLE = resource("/voter/voter.css");

    private final String trust;
    private final String messages;

    VoterPage(List<NoteVerifier> logKeys, WitnessPolicy witnesses, VoterLanguages languages) {
        this.messages = languages.messagesJson();
        ObjectNode t = Responses.JSON.createObjectNode();
        ArrayNode keys = t.putArray("log_keys");
        logKeys.forEach(k -> keys.add(k.verifierKey()));
        ArrayNode ws = t.putArray("witness_keys");
        witnesses.verifiers().forEach(v -> ws.add(v.verifierKey()));
        // a plain "k of these keys" is a number; a rule with groups (a witness's two keys, nested
        // groups) is the C2SP tlog-policy itself, which the page evaluates (quorum -1)
        t.put("quorum", witnesses.flatQuorum());
        if (witnesses.flatQuorum() < 0) {
            t.put("policy", witnesses.rule().text());
            t.put("quorum_rule", witnesses.describe());
        }
        this.trust = t.toString();
    }

    List<Route> routes() {
        return List.of(
                // the page's own script reads these to pre-fill the form (links from a receipt)
                file("/voter", List.of("board", "record", "leaf_hash", "election", "lang"), "text/html", HTML),
                file("/voter/i18n.js", List.of(), "text/javascript", I18N),
                file("/voter/messages.json", List.of(), "application/json", messages),
                file("/voter/voter.js", List.of(), "text/javascript", SCRIPT),
                file("/voter/personal.js", List.of(), "text/javascript", PERSONAL),
                file("/voter/heads.js", List.of(), "text/javascript", HEADS),
                file("/voter/tiles.js", List.of(), "text/javascript", TILES),
                file("/voter/pq.js", List.of(), "text/javascript", POST_QUANTUM),
                new Route(
                        HandlerType.GET,
                        "/voter/vendor/<path>",
                        List.of(),
                        List.of(200, 404),
                        null,
                        "text/javascript",
                        ctx -> {
                            String module = VoterModules.all().get("vendor/" + ctx.pathParam("path"));
                            if (module == null) {
                                throw ApiException.notFound("no such module of the voter page");
                            }
                            page(ctx, "text/javascript", module);
                        },
                        null,
                        Role.ANONYMOUS),
                file("/voter/voter.css", List.of(), "text/css", STYLE),
                new Route(
                        HandlerType.GET,
                        "/voter/trust.json",
                        List.of(),
                        List.of(200),
                        null,
                        Route.JSON,
                        ctx -> {
                            ctx.header("Cache-Control", "no-cache");
                            ctx.contentType("application/json").result(trust);
                        },
                        null,
                        Role.ANONYMOUS));
    }

    private static Route file(String path, List<String> query, String mediaType, String body) {
        return new Route(
                HandlerType.GET,
                path,
                query,
                List.of(200),
                null,
                mediaType,
                (Context ctx) -> page(ctx, mediaType, body),
                null,
                Role.ANONYMOUS);
    }

    private static void page(Context ctx, String mediaType, String body) {
        ctx.header("Content-Security-Policy", CSP);
        ctx.header("X-Content-Type-Options", "nosniff");
        ctx.header("Referrer-Policy", "no-referrer");
        ctx.header("Cache-Control", "no-cache");
        ctx.contentType(mediaType + "; charset=utf-8").result(body);
    }

    private static String resource(String name) {
        try (InputStream in = VoterPage.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("the jar has no " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
