package org.electorallog.query;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.electorallog.core.Hashes;
import org.electorallog.core.Timestamps;
import org.electorallog.statement.PersonalOpenings;
import org.electorallog.statement.StatementKinds;
import org.electorallog.store.BoardState;
import org.electorallog.store.IndexedFields;
import org.electorallog.store.StoredRecord;

/**
 * The JSON bodies of the query API, one record per kind of answer, serialised by Jackson with
 * snake_case names (docs/api.md). One encoding per kind of value on every endpoint and export:
 * hashes, keys, signatures and canonical statements are standard base64 (RFC 4648 section 4, as in
 * C2SP checkpoints); times are RFC 3339 UTC; kinds are their names.
 */
final class Responses {
    private Responses() {}

    /** The mapper of every JSON body and export line. */
    static final ObjectMapper JSON = new ObjectMapper().setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);

    static String b64(byte[] bytes) {
        return bytes == null ? null : Base64.getEncoder().encodeToString(bytes);
    }

    static List<String> b64(List<byte[]> hashes) {
        return hashes.stream().map(Responses::b64).toList();
    }

    /**
     * GET /health, /health/live, /health/ready; {@code detail} says why readiness is down while the
     * database answers (its schema is older than this build reads, {@link ProjectionSchema}).
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Health(String status, String database, String detail) {}

    /**
     * One board in GET /boards and GET /boards/{board}; {@code sealed} is null while the board is
     * open.
     */
    record BoardSummary(String board, String origin, long size, String root, Seal sealed) {
        static BoardSummary of(BoardState s) {
            return new BoardSummary(
                    s.board().name(),
                    s.board().origin(),
                    s.size(),
                    b64(s.root()),
                    s.sealed()
                            ? new Seal(
                                    s.size(),
                                    b64(s.root()),
                                    s.size() - 1,
                                    Timestamps.rfc3339(Instant.ofEpochMilli(s.sealedMillis())))
                            : null);
        }
    }

    /**
     * A sealed board's end (issue 42): the size and root it was sealed at, for good; its
     * BOARD_SEALED record; when. Its checkpoint at {@code size} is the board's last
     * (GET /boards/{board}/checkpoint).
     */
    record Seal(long size, String root, long record, String at) {}

    /** GET /boards. */
    record BoardList(List<BoardSummary> boards) {}

    /**
     * A personal value of a record in the committed form (docs/personal-data.md) and the salt of its
     * commitment: with the record's statement, SHA-256 of the commitment's input opens it.
     */
    record PersonalValue(String path, String salt, String value) {}

    /**
     * GET /boards/{board}/records/{id}. {@code personal}: the openings of a statement in the
     * committed form (observers and the record's voter only; absent in format 1 and once erased).
     */
    record RecordBody(
            String board,
            long id,
            String created,
            String statementTime,
            String kind,
            String senderKey,
            @JsonUnwrapped IndexedFields fields,
            String deliveryId,
            @JsonInclude(JsonInclude.Include.NON_NULL) String statement,
            String leafHash,
            int schemaId,
            int kafkaPartition,
            long kafkaOffset,
            @JsonInclude(JsonInclude.Include.NON_EMPTY) List<PersonalValue> personal) {
        /** What anonymous callers see of a record of a public kind: the public fields, no statement. */
        RecordBody publicView(Set<String> publicFields) {
            IndexedFields f = new IndexedFields(
                    publicFields.contains("user_id") ? fields.userId() : null,
                    publicFields.contains("username") ? fields.username() : null,
                    publicFields.contains("election_id") ? fields.electionId() : null,
                    publicFields.contains("area_id") ? fields.areaId() : null,
                    publicFields.contains("ballot_id") ? fields.ballotId() : null);
            return new RecordBody(
                    board,
                    id,
                    created,
                    statementTime,
                    kind,
                    senderKey,
                    f,
                    deliveryId,
                    null,
                    leafHash,
                    schemaId,
                    kafkaPartition,
                    kafkaOffset,
                    List.of());
        }

        static RecordBody of(String board, StoredRecord r, List<PersonalOpenings.Opening> openings) {
            return new RecordBody(
                    board,
                    r.id(),
                    Timestamps.rfc3339(r.created()),
                    Timestamps.rfc3339(r.statementTime()),
                    StatementKinds.name(r.kind()),
                    b64(r.senderKey()),
                    r.fields(),
                    r.deliveryId(),
                    b64(r.statement()),
                    b64(Hashes.leafHash(r.statement())),
                    r.schemaId(),
                    r.partition(),
                    r.offset(),
                    openings.stream()
                            .map(o -> new PersonalValue(o.path(), b64(o.salt()), o.value()))
                            .toList());
        }
    }

    /** GET /boards/{board}/records/{id}/proof: RFC 9162 inclusion proof; the checkpoint when it is at this size. */
    record InclusionProof(
            String board,
            long index,
            long size,
            String leafHash,
            List<String> hashes,
            String root,
            @JsonInclude(JsonInclude.Include.NON_NULL) String checkpoint) {}

    /**
     * GET /boards/{board}/deliveries?delivery_id=&leaf_hash=: where a sender's statement was recorded (issue 61
     * item 7): the record holding that delivery ID, whose leaf hash is the one the sender asked with.
     */
    record Delivery(String board, String deliveryId, long record, String leafHash) {}

    /** GET /boards/{board}/consistency: RFC 9162 consistency proof. */
    record ConsistencyProof(
            String board,
            long from,
            long to,
            String fromRoot,
            String toRoot,
            List<String> hashes,
            @JsonInclude(JsonInclude.Include.NON_NULL) String checkpoint) {}

    /** POST /boards/{board}/records/{id}/proof: inclusion at the newer size and consistency from the trusted one. */
    record TrustedProof(
            String board,
            long index,
            long trustedSize,
            long size,
            String leafHash,
            List<String> inclusion,
            List<String> consistency,
            @JsonInclude(JsonInclude.Include.NON_NULL) String checkpoint) {}

    /** One cast vote of the ballot locator. */
    record Ballot(long id, String statementTime, String kind, String ballotId, String proofBundle) {}

    /** GET /boards/{board}/ballots. */
    record BallotPage(List<Ballot> ballots, String nextCursor) {}

    /** GET /admin/boards/{board}/counts. */
    record Counts(
            String board,
            long total,
            long withUser,
            Map<String, Long> byKind,
            Map<String, Long> byElection,
            Map<String, Map<String, Long>> byElectionAndKind) {}

    /** One record of a listing or export; {@code statement} only in the full JSON Lines export. */
    record ListedRecord(
            long id,
            String created,
            String statementTime,
            String kind,
            @JsonUnwrapped IndexedFields fields,
            String deliveryId,
            String leafHash,
            @JsonInclude(JsonInclude.Include.NON_NULL) String statement) {
        /** A listing row: the leaf hash from its statement, the statement itself left out. */
        static ListedRecord of(StoredRecord r) {
            return of(r, Hashes.leafHash(r.statement()), false);
        }

        /** An export row with its leaf hash; the statement only when asked and read ({@code r.statement()} not null). */
        static ListedRecord of(StoredRecord r, byte[] leafHash, boolean withStatement) {
            return new ListedRecord(
                    r.id(),
                    Timestamps.rfc3339(r.created()),
                    Timestamps.rfc3339(r.statementTime()),
                    StatementKinds.name(r.kind()),
                    r.fields(),
                    r.deliveryId(),
                    b64(leafHash),
                    withStatement ? b64(r.statement()) : null);
        }

        /** The CSV export's columns, in order. */
        static final List<String> CSV_COLUMNS = Stream.of(
                        List.of("id", "created", "statement_time", "kind"),
                        IndexedFields.COLUMNS,
                        List.of("delivery_id", "leaf_hash"))
                .flatMap(List::stream)
                .toList();

        List<Object> csvValues() {
            return List.of(
                    id,
                    created,
                    statementTime,
                    kind,
                    text(fields.userId()),
                    text(fields.username()),
                    text(fields.electionId()),
                    text(fields.areaId()),
                    text(fields.ballotId()),
                    text(deliveryId),
                    leafHash);
        }

        /**
         * A statement's text as a CSV cell: empty for null, and a leading {@code '} before a value a
         * spreadsheet would run as a formula ({@code = + - @}, tab, carriage return: OWASP "CSV
         * Injection"). Times, kinds, IDs and hashes are written by the log and go in as they are.
         */
        static String text(String s) {
            if (s == null) {
                return "";
            }
            return !s.isEmpty() && "=+-@\t\r".indexOf(s.charAt(0)) >= 0 ? "'" + s : s;
        }
    }

    /** How a listing page was served. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Served(String path, String index, String note, Long scannedFromId, Long scannedToId) {}

    /** GET /admin/boards/{board}/records. */
    record ListingPage(List<ListedRecord> records, String nextCursor, Served served) {}

    /** GET /admin/boards/{board}/records/count. */
    record Count(long count, boolean capped, String source) {}

    /** The first line of the JSON Lines export. */
    record ExportManifest(Manifest manifest) {
        record Manifest(String board, long size, String root, String checkpoint) {}
    }

    /** POST /admin/boards/{board}/audits. */
    record AuditStarted(String audit, String status) {}

    /** GET /admin/audits/{id}. */
    record AuditStatus(
            String audit,
            String board,
            String state,
            long checked,
            long total,
            @JsonInclude(JsonInclude.Include.NON_NULL) String error,
            @JsonInclude(JsonInclude.Include.NON_NULL) String verdict,
            @JsonInclude(JsonInclude.Include.NON_NULL) String result) {}
}
