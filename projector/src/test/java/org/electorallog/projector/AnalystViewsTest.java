package org.electorallog.projector;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.schemas.StatementCodec;
import org.electorallog.schemas.avro.CastVoteError;
import org.electorallog.schemas.avro.Envelope;
import org.electorallog.schemas.avro.IdentityProviderUserEvent;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.schemas.avro.StatementKind;
import org.junit.jupiter.api.Test;

/**
 * The analyst views of store V11 (issue 15): the identity-provider event type and error texts and
 * the counts per hour that lived only inside the statements, read as the analyst login.
 */
class AnalystViewsTest {
    private static final long HOUR_1 = Instant.parse("2026-05-03T08:00:00Z").toEpochMilli();
    private static final long HOUR_2 = Instant.parse("2026-05-03T09:00:00Z").toEpochMilli();

    @Test
    void analystsReadEventTypesErrorsAndHourlyCounts() throws Exception {
        String board = "analyst-" + Long.toString(System.nanoTime(), 36);
        ProjectorHarness h = new ProjectorHarness("analyst", 1);
        StatementCodec codec = StatementCodec.embedded();
        try (Projector p = Projector.start(h.settings);
                KafkaProducer<String, byte[]> raw = new KafkaProducer<>(
                        ElectoralLogProducer.defaults(h.stack.kafkaBootstrap()),
                        new StringSerializer(),
                        new ByteArraySerializer())) {
            send(raw, h, codec, idp(board, "l1", HOUR_1 + 5_000, "LOGIN", null));
            send(raw, h, codec, idp(board, "l2", HOUR_1 + 3_599_999, "LOGIN_ERROR", "invalid_user_credentials"));
            send(raw, h, codec, idp(board, "l3", HOUR_2, "LOGIN", null));
            send(raw, h, codec, voteError(board, "e1", HOUR_2 + 60_000, "ballot rejected: already voted"));
            h.awaitProjected(h.stack.database().jdbcUrl(), h.endOffsets(), Duration.ofMinutes(1));
            assertEquals(0, p.metrics().deadLetters());
        }
        String url = h.stack.database().jdbcUrl();
        try (Connection c = DriverManager.getConnection(url, "electoral_log_analyst", "")) {
            // every kind's name, in code order, as the schema's enum has them (store V20)
            List<String> kinds = new ArrayList<>();
            try (ResultSet rs = c.createStatement().executeQuery("SELECT name FROM statement_kinds ORDER BY kind")) {
                while (rs.next()) {
                    kinds.add(rs.getString(1));
                }
            }
            assertEquals(org.electorallog.statement.StatementKinds.NAMES, kinds);
            assertEquals(
                    List.of("0 LOGIN null", "1 LOGIN_ERROR invalid_user_credentials", "2 LOGIN null"),
                    rows(
                            c,
                            "SELECT id || ' ' || event_type || ' ' || coalesce(error, 'null') FROM analyst_idp_events "
                                    + "WHERE board = ? ORDER BY id",
                            board));
            assertEquals(
                    List.of("3 e1 ballot rejected: already voted"),
                    rows(
                            c,
                            "SELECT id || ' ' || election_id || ' ' || error FROM analyst_vote_errors "
                                    + "WHERE board = ? ORDER BY id",
                            board));
            assertEquals(
                    List.of(
                            "2026-05-03T08:00:00Z IDP_USER_EVENT 2",
                            "2026-05-03T09:00:00Z CAST_VOTE_ERROR 1",
                            "2026-05-03T09:00:00Z IDP_USER_EVENT 1"),
                    rows(
                            c,
                            "SELECT to_char(hour AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') || ' ' || kind "
                                    + "|| ' ' || n FROM analyst_hourly_counts WHERE board = ? ORDER BY hour, kind",
                            board));
        }
    }

    private static List<String> rows(Connection c, String sql, String board) throws Exception {
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, board);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }

    private static Envelope idp(String board, String id, long ts, String type, String error) {
        Statement st = Statement.newBuilder(ProjectorHarness.statement(board, id, ts))
                .setBody(IdentityProviderUserEvent.newBuilder()
                        .setEventType(type)
                        .setError(error)
                        .setIp("203.0.113.7")
                        .build())
                .build();
        return Envelope.newBuilder().setStatement(st).build();
    }

    private static Envelope voteError(String board, String id, long ts, String error) {
        Statement st = Statement.newBuilder(ProjectorHarness.statement(board, id, ts))
                .setKind(StatementKind.CAST_VOTE_ERROR)
                .setElectionId("e1")
                .setBody(CastVoteError.newBuilder()
                        .setElectionId("e1")
                        .setError(error)
                        .build())
                .build();
        return Envelope.newBuilder().setStatement(st).build();
    }

    private static void send(KafkaProducer<String, byte[]> raw, ProjectorHarness h, StatementCodec codec, Envelope e)
            throws Exception {
        SignaturePolicyTest.send(raw, h.topic, codec, e);
    }
}
