package org.electorallog.query;

import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.electorallog.core.Hex;
import org.electorallog.statement.StatementKinds;
import org.electorallog.store.IndexedFields;
import org.electorallog.store.RecordFilter;

/**
 * One listing or count request ({@code GET /admin/boards/{board}/records} and its {@code /count})
 * parsed into the store's {@link RecordFilter}, which says how each combination is served; a
 * request no index serves, or with a parameter that is unknown, repeated or malformed, is a 400.
 *
 * @param filter   the filters and sort
 * @param identity the request's filters and sort without limit and cursor: a cursor is bound to it
 */
record ListingQuery(RecordFilter filter, String identity) {
    static final Set<String> PARAMETERS = Stream.concat(
                    IndexedFields.COLUMNS.stream(),
                    Stream.of(
                            "sort",
                            "order",
                            "limit",
                            "cursor",
                            "kind",
                            "sender_key",
                            "created_from",
                            "created_to",
                            "statement_time_from",
                            "statement_time_to",
                            "from_id",
                            "to_id",
                            "with_user",
                            "visible_elections",
                            "visible_areas"))
            .collect(Collectors.toUnmodifiableSet());

    /** Parses a request's query parameters; 400 for an unknown or repeated one. */
    static ListingQuery parse(Map<String, List<String>> query) {
        Map<String, String> p = new TreeMap<>();
        for (Map.Entry<String, List<String>> e : query.entrySet()) {
            if (!PARAMETERS.contains(e.getKey())) {
                throw ApiException.badRequest(
                        "unknown parameter '" + e.getKey() + "'; the listing takes " + new TreeSet<>(PARAMETERS));
            }
            if (e.getValue().size() != 1) {
                throw ApiException.badRequest("parameter '" + e.getKey() + "' is given "
                        + e.getValue().size() + " times; give it once (lists are comma-separated)");
            }
            p.put(e.getKey(), e.getValue().get(0));
        }
        Map<String, String> bound = new TreeMap<>(p);
        bound.remove("limit");
        bound.remove("cursor");
        RecordFilter.Builder b = RecordFilter.builder();
        b.limit = p.containsKey("limit") ? (int) QueryParameters.bounded("limit", p.get("limit"), 1, 1000) : 100;
        b.kind = p.containsKey("kind") ? kind(p.get("kind")) : null;
        b.userId = QueryParameters.text("user_id", p.get("user_id"));
        b.username = QueryParameters.text("username", p.get("username"));
        b.electionId = QueryParameters.text("election_id", p.get("election_id"));
        b.areaId = QueryParameters.text("area_id", p.get("area_id"));
        b.ballotId = QueryParameters.text("ballot_id", p.get("ballot_id"));
        b.senderKey = p.containsKey("sender_key") ? senderKey(p.get("sender_key")) : null;
        b.createdFrom = QueryParameters.instant("created_from", p.get("created_from"));
        b.createdTo = QueryParameters.instant("created_to", p.get("created_to"));
        b.statementFrom = QueryParameters.instant("statement_time_from", p.get("statement_time_from"));
        b.statementTo = QueryParameters.instant("statement_time_to", p.get("statement_time_to"));
        b.fromId = p.containsKey("from_id") ? QueryParameters.number("from_id", p.get("from_id")) : null;
        b.toId = p.containsKey("to_id") ? QueryParameters.number("to_id", p.get("to_id")) : null;
        String wu = p.get("with_user");
        if (wu != null && !wu.equals("true")) {
            throw ApiException.badRequest(
                    "with_user takes only 'true' (records that have a user ID), got '" + wu + "'");
        }
        b.withUser = wu != null;
        b.visibleElections = QueryParameters.list("visible_elections", p.get("visible_elections"));
        b.visibleAreas = QueryParameters.list("visible_areas", p.get("visible_areas"));
        String order = p.getOrDefault("order", "desc");
        if (!order.equals("desc") && !order.equals("asc")) {
            throw ApiException.badRequest("order must be desc or asc, got '" + order + "'");
        }
        b.desc = order.equals("desc");
        b.sort = p.get("sort");
        try {
            return new ListingQuery(b.build(), "records\u0000" + bound);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(e.getMessage());
        }
    }

    private static Short kind(String v) {
        int code = StatementKinds.code(v);
        if (code < 0 && !v.isEmpty() && v.length() < 4 && v.chars().allMatch(Character::isDigit)) {
            code = Integer.parseInt(v);
            if (code >= StatementKinds.NAMES.size()) {
                code = -1;
            }
        }
        if (code < 0) {
            throw ApiException.badRequest(
                    "kind '" + QueryParameters.shown(v) + "' is not a statement kind; kinds: " + StatementKinds.NAMES);
        }
        return (short) code;
    }

    private static byte[] senderKey(String v) {
        byte[] k = null;
        if (v.length() == 64 && v.chars().allMatch(ch -> Character.digit(ch, 16) >= 0)) {
            k = Hex.decode(v.toLowerCase(Locale.ROOT));
        } else if (v.length() >= 43 && v.length() <= 44) {
            try {
                k = Base64.getDecoder().decode(v);
            } catch (IllegalArgumentException e) {
                k = null;
            }
        }
        if (k == null || k.length != 32) {
            throw ApiException.badRequest(
                    "sender_key must be a 32-byte Ed25519 public key in hex (64 digits) or base64");
        }
        return k;
    }
}
