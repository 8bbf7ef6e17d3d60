package org.electorallog.projector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.Future;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.core.Hashes;
import org.electorallog.schemas.StatementCodec;
import org.electorallog.schemas.StatementRules;
import org.electorallog.schemas.WireFormat;
import org.electorallog.schemas.avro.CastVote;
import org.electorallog.schemas.avro.Envelope;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.store.Migrations;
import org.electorallog.store.ProjectionDatabase;
import org.junit.jupiter.api.Test;

/**
 * Invariant 6 against a producer that is not ours: a raw Kafka producer (nothing filtered on the
 * way) publishes every class of bad event we know, each between good statements on the same board,
 * on another board of the same partition and on a board of the other partition. Among them are
 * events that decode and pass every rule but that PostgreSQL refuses (a CHECK constraint and a
 * trigger the test installs, and a new board when every board ID is taken), which only the projector's
 * isolation path can find. Everything is published before the projector starts, so the bad events
 * share batches with good ones. Passes only when every good statement is projected once and in
 * order, every bad one is in the dead letters once with its reason, and the projector is healthy.
 */
class HostileInputTest {
    private static final StatementCodec CODEC = StatementCodec.embedded();
    private static final int DLQ_MAX_BYTES = 200_000;

    /** One event to publish: where, what, and (for a bad one) the reason and a fragment of the message expected. */
    @SuppressWarnings("ArrayRecordComponent") // an event to publish, never compared as a value
    private record Event(
            String key,
            byte[] keyBytes,
            byte[] value,
            int partition,
            Long timestamp,
            RecordHeaders headers,
            String board,
            String deliveryId,
            String reason,
            String messagePart) {
        boolean bad() {
            return reason != null;
        }
    }

    @Test
    void everyBadEventIsDeadLetteredWithItsReasonAndEveryGoodOneIsProjectedOnce() throws Exception {
        ProjectorHarness h = new ProjectorHarness("hostile", 2);
        TopicLayout layout = TopicLayout.of(2);
        String a = boardOn(layout, 0, "hostile-a");
        String b = boardOn(layout, 0, "hostile-b");
        String c = boardOn(layout, 1, "hostile-c");
        String overflowSecond = boardOn(layout, 0, "hostile-overflow");
        int home = 0;
        int away = 1;

        try (Admin admin = Admin.create(Map.of("bootstrap.servers", h.stack.kafkaBootstrap()))) {
            admin.incrementalAlterConfigs(Map.of(
                            new ConfigResource(ConfigResource.Type.TOPIC, h.deadLetters),
                                    List.of(new AlterConfigOp(
                                            new ConfigEntry("max.message.bytes", String.valueOf(DLQ_MAX_BYTES)),
                                            AlterConfigOp.OpType.SET)),
                            new ConfigResource(ConfigResource.Type.TOPIC, h.topic),
                                    List.of(new AlterConfigOp(
                                            new ConfigEntry(
                                                    "message.timestamp.after.max.ms", String.valueOf(Long.MAX_VALUE)),
                                            AlterConfigOp.OpType.SET))))
                    .all()
                    .get();
        }

        String url = h.createDatabase("hostile_" + System.nanoTime());
        DatabaseLogin dba = h.stack.database();
        try (HikariDataSource ds = ProjectionDatabase.pool(url, dba.user(), dba.password(), 2, "hostile-setup")) {
            Migrations.apply(ds); // Flyway takes two connections of the pool
            try (Connection con = ds.getConnection();
                    java.sql.Statement st = con.createStatement()) {
                // refusals the rules cannot foresee, by class: 23 (check), 22 and 54 (trigger), 22003 (board IDs)
                st.execute(
                        "ALTER TABLE records ADD CONSTRAINT hostile_check CHECK (username IS DISTINCT FROM 'refused-by-check')");
                st.execute("CREATE FUNCTION hostile_refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                        + "IF NEW.area_id = 'refused-22' THEN RAISE EXCEPTION 'hostile area' USING ERRCODE = '22023'; END IF; "
                        + "IF NEW.area_id = 'refused-54' THEN RAISE EXCEPTION 'hostile limit' USING ERRCODE = '54000'; END IF; "
                        + "RETURN NEW; END $$");
                st.execute(
                        "CREATE TRIGGER hostile_refuse BEFORE INSERT ON records FOR EACH ROW EXECUTE FUNCTION hostile_refuse()");
            }
        }
        ProjectorSettings settings = h.settings.withDatabase(dba.atUrl(url));

        List<Event> events = new ArrayList<>();
        int[] seq = {0};
        Runnable goods = () -> {
            int n = seq[0]++;
            events.add(good(a, home, "a-" + n));
            events.add(good(b, home, "b-" + n));
            events.add(good(c, away, "c-" + n));
        };
        // phase 1: the three boards exist
        goods.run();
        Map<Long, Event> byOffset = new TreeMap<>();
        publish(h, events, byOffset);
        try (Projector p = Projector.start(settings)) {
            h.awaitProjected(url, h.endOffsets(), Duration.ofSeconds(120));
        }
        try (Connection con = DriverManager.getConnection(url, dba.user(), dba.password());
                java.sql.Statement st = con.createStatement()) {
            // every smallint board ID is taken: the next new board finds none (SQLSTATE 22003)
            st.execute("INSERT INTO boards (board_id, name, origin, created) "
                    + "VALUES (32767, 'hostile-last-id', 'test/hostile-last-id', now())");
            st.execute("INSERT INTO board_state (board_id, size, root) VALUES (32767, 0, sha256(''::bytea))");
        }

        // phase 2: everything published before the projector starts again, so bad events share batches with good ones
        List<Event> second = new ArrayList<>();
        int firstRound = events.size();
        for (Event bad : badEvents(a, home, away, overflowSecond)) {
            goods.run();
            events.add(bad);
            goods.run();
        }
        second.addAll(events.subList(firstRound, events.size()));
        publish(h, second, byOffset);

        long badCount = events.stream().filter(Event::bad).count();
        try (Projector p = Projector.start(settings)) {
            h.awaitProjected(url, h.endOffsets(), Duration.ofSeconds(180));
            assertNull(p.stopped(), "the projector did not stop");
            assertEquals(true, p.health().get("healthy"), "healthy after the hostile input: " + p.health());
            assertEquals(
                    badCount,
                    p.metrics().deadLetters(),
                    "every bad event counted once in the metrics: "
                            + p.metrics().snapshot());
        }

        // every good statement projected once, in publish order, IDs 0..n-1
        Map<String, List<String>> expected = new LinkedHashMap<>();
        for (Event e : events) {
            if (!e.bad()) {
                expected.computeIfAbsent(e.board(), k -> new ArrayList<>()).add(e.deliveryId());
            }
        }
        for (Map.Entry<String, List<String>> e : expected.entrySet()) {
            assertEquals(e.getValue(), deliveryIds(url, dba, e.getKey()), "board " + e.getKey());
        }
        assertEquals(List.of(), deliveryIds(url, dba, overflowSecond), "the board that found no ID has no records");

        // every bad event dead-lettered exactly once, with its reason and its original bytes (or their digest)
        Map<Long, ConsumerRecord<String, byte[]>> letters = new TreeMap<>();
        for (ConsumerRecord<String, byte[]> r : DeadLetters.read(h)) {
            long part = Long.parseLong(header(r, "dlq.source.partition"));
            long off = Long.parseLong(header(r, "dlq.source.offset"));
            ConsumerRecord<String, byte[]> before = letters.put((part << 40) | off, r);
            assertNull(before, "one dead letter for " + part + "@" + off);
        }
        for (Map.Entry<Long, Event> e : byOffset.entrySet()) {
            Event ev = e.getValue();
            ConsumerRecord<String, byte[]> letter = letters.get(e.getKey());
            if (!ev.bad()) {
                assertNull(
                        letter,
                        "good statement " + ev.deliveryId() + " is not dead-lettered: "
                                + (letter == null ? "" : header(letter, "dlq.message")));
                continue;
            }
            assertNotNull(
                    letter,
                    "bad event (" + ev.reason() + ", " + ev.messagePart() + ") at " + e.getKey() + " dead-lettered");
            String message = header(letter, "dlq.message");
            assertEquals(ev.reason(), header(letter, "dlq.reason"), message);
            assertTrue(message.contains(ev.messagePart()), "'" + message + "' names " + ev.messagePart());
            assertEquals(h.topic, header(letter, "dlq.source.topic"));
            if (letter.headers().lastHeader("dlq.truncated") != null) {
                assertEquals(String.valueOf(ev.value().length), header(letter, "dlq.original.length"));
                assertEquals(
                        HexFormat.of().formatHex(Hashes.sha256(ev.value())), header(letter, "dlq.original.sha256"));
                assertTrue(letter.value().length < DLQ_MAX_BYTES, "truncated to fit the dead-letter topic");
                assertEquals(ByteBuffer.wrap(ev.value(), 0, letter.value().length), ByteBuffer.wrap(letter.value()));
            } else if (ev.value() == null) {
                assertNull(letter.value());
            } else {
                assertEquals(ByteBuffer.wrap(ev.value()), ByteBuffer.wrap(letter.value()), "original bytes kept");
            }
        }
        assertEquals(badCount, letters.size(), "nothing else in the dead letters");
        assertTrue(
                letters.values().stream().anyMatch(r -> r.headers().lastHeader("dlq.truncated") != null),
                "the oversized original was truncated");
    }

    /** Publishes with a raw producer (nothing filtered), keeping each event's partition and offset. */
    private static void publish(ProjectorHarness h, List<Event> events, Map<Long, Event> byOffset) throws Exception {
        Properties pp = new Properties();
        pp.put("bootstrap.servers", h.stack.kafkaBootstrap());
        pp.put("acks", "all");
        pp.put("enable.idempotence", "true");
        pp.put("max.request.size", String.valueOf(2 * 1024 * 1024));
        try (KafkaProducer<byte[], byte[]> raw =
                new KafkaProducer<>(pp, new ByteArraySerializer(), new ByteArraySerializer())) {
            List<Future<RecordMetadata>> acks = new ArrayList<>();
            for (Event e : events) {
                acks.add(raw.send(new ProducerRecord<>(
                        h.topic, e.partition(), e.timestamp(), e.keyBytes(), e.value(), e.headers())));
            }
            raw.flush();
            for (int i = 0; i < events.size(); i++) {
                RecordMetadata md = acks.get(i).get();
                assertEquals(events.get(i).partition(), md.partition());
                byOffset.put(((long) md.partition() << 40) | md.offset(), events.get(i));
            }
        }
    }

    private static List<Event> badEvents(String a, int home, int away, String overflowSecond) {
        List<Event> out = new ArrayList<>();
        Random random = new Random(13);
        byte[] garbage = new byte[300];
        random.nextBytes(garbage);
        garbage[0] = 'G';
        out.add(raw(a, home, garbage, "NO_SCHEMA", "magic"));
        out.add(raw(a, home, new byte[0], "UNDECODABLE", ""));
        out.add(raw(a, home, null, "UNDECODABLE", "no value"));
        byte[] wrongMagic = wire(base(a, "wrong-magic"));
        wrongMagic[0] = 1;
        out.add(raw(a, home, wrongMagic, "NO_SCHEMA", ""));
        out.add(raw(a, home, WireFormat.frame(987_654, new byte[] {2, 4, 6}), "UNKNOWN_SCHEMA", "987654"));
        byte[] whole = wire(base(a, "truncated"));
        out.add(raw(a, home, java.util.Arrays.copyOf(whole, whole.length / 2), "UNDECODABLE", "Avro"));
        byte[] absurd = WireFormat.frame(
                ByteBuffer.wrap(whole, 1, 4).getInt(),
                new byte[] {(byte) 0xFE, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x0F, 'x'});
        out.add(raw(a, home, absurd, "UNDECODABLE", "Avro"));
        byte[] trailing = java.util.Arrays.copyOf(whole, whole.length + 3);
        out.add(raw(a, home, trailing, "UNDECODABLE", "after the Avro record"));
        // a huge undecodable event (with a large header) must still fit the dead-letter topic
        byte[] huge = new byte[600_000];
        random.nextBytes(huge);
        huge[0] = 'H';
        RecordHeaders hugeHeaders = new RecordHeaders();
        hugeHeaders.add("trace", new byte[70_000]);
        out.add(new Event(
                a, a.getBytes(StandardCharsets.UTF_8), huge, home, null, hugeHeaders, a, null, "NO_SCHEMA", ""));
        // the key: another board, none, invalid UTF-8; the partition: not the board's
        out.add(keyed("hostile-other", base(a, "wrong-key"), home, "INVALID", "differs from the statement's board"));
        out.add(new Event(null, null, wire(base(a, "no-key")), home, null, null, a, null, "INVALID", "Kafka key"));
        out.add(new Event(
                null,
                new byte[] {(byte) 0xC3, 0x28},
                wire(base(a, "bad-key")),
                home,
                null,
                null,
                a,
                null,
                "INVALID",
                "Kafka key"));
        out.add(keyed(a, base(a, "wrong-partition"), away, "INVALID", "belongs to partition 0"));
        // what decodes but PostgreSQL text and indexes cannot hold
        out.add(keyed(a, with(base(a, "nul-user"), s -> s.setUserId("voter\u0000one")), home, "INVALID", "user_id"));
        out.add(keyed(
                a,
                with(
                        base(a, "nul-body"),
                        s -> s.setBody(CastVote.newBuilder()
                                .setElectionId("e1")
                                .setPseudonymHash(ByteBuffer.wrap(new byte[32]))
                                .setCastVoteHash(ByteBuffer.wrap(new byte[32]))
                                .setIp("10.0.0.1\u0000")
                                .build())),
                home,
                "INVALID",
                "body.ip"));
        out.add(keyed(a, with(base(a, "long-user"), s -> s.setUserId("u".repeat(3_000))), home, "INVALID", "user_id"));
        out.add(keyed(
                a,
                with(base(a, "long-username"), s -> s.setUsername("n".repeat(StatementRules.MAX_TEXT_BYTES + 1))),
                home,
                "INVALID",
                "username"));
        out.add(keyed(
                a,
                with(base(a, "long-election"), s -> s.setElectionId("\u00e9".repeat(200))),
                home,
                "INVALID",
                "election_id"));
        out.add(keyed(a, with(base(a, "long-area"), s -> s.setAreaId("x".repeat(9_000))), home, "INVALID", "area_id"));
        out.add(keyed(
                a, with(base(a, "long-ballot"), s -> s.setBallotId("b".repeat(2_800))), home, "INVALID", "ballot_id"));
        out.add(keyed(
                a,
                with(base(a, "long-sender"), s -> s.setSenderName("s".repeat(400))),
                home,
                "INVALID",
                "sender_name"));
        out.add(keyed(a, with(base(a, "x".repeat(129)), s -> {}), home, "INVALID", "delivery_id"));
        out.add(keyed(a, with(base(a, "empty-sender"), s -> s.setSenderName(" ")), home, "INVALID", "sender_name"));
        out.add(keyed(
                a,
                with(base(a, "short-key"), s -> s.setSenderPublicKey(ByteBuffer.wrap(new byte[31]))),
                home,
                "INVALID",
                "sender_public_key"));
        out.add(keyed(
                a,
                with(base(a, "ts-max"), s -> s.setStatementTimestamp(Long.MAX_VALUE)),
                home,
                "INVALID",
                "statement_timestamp"));
        out.add(keyed(
                a,
                with(base(a, "ts-negative"), s -> s.setStatementTimestamp(-62_135_596_800_001L)),
                home,
                "INVALID",
                "statement_timestamp"));
        out.add(keyed(
                a,
                with(base(a, "ts-year-10000"), s -> s.setStatementTimestamp(StatementRules.MAX_MILLIS + 1)),
                home,
                "INVALID",
                "statement_timestamp"));
        Envelope shortSig = Envelope.newBuilder()
                .setStatement(base(a, "short-signature"))
                .setSenderSignature(ByteBuffer.wrap(new byte[10]))
                .build();
        out.add(new Event(
                a,
                a.getBytes(StandardCharsets.UTF_8),
                CODEC.encode(shortSig),
                home,
                null,
                null,
                a,
                null,
                "INVALID",
                "sender_signature"));
        out.add(keyed(
                a,
                with(base(a, "oversized"), s -> s.setArtifact(ByteBuffer.wrap(new byte[70_000]))),
                home,
                "OVERSIZED",
                "65535"));
        Statement inBoard = base("UPPER", "bad-board");
        out.add(keyed("UPPER", inBoard, home, "INVALID", "board"));
        // invalid UTF-8 inside an Avro string: the placeholder's bytes replaced in the encoded event
        byte[] invalidUtf8 = wire(with(base(a, "bad-utf8"), s -> s.setUsername("PLACEHOLDER")));
        replace(invalidUtf8, "PLACEHOLDER".getBytes(StandardCharsets.UTF_8), new byte[] {
            'P', 'L', (byte) 0xC3, 0x28, 'E', 'H', 'O', (byte) 0xED, (byte) 0xA0, (byte) 0x80, 'R'
        });
        out.add(new Event(
                a, a.getBytes(StandardCharsets.UTF_8), invalidUtf8, home, null, null, a, null, "INVALID", "UTF-8"));
        // a Kafka record time beyond the documented range
        Event future = keyed(a, base(a, "kafka-year-10000"), home, "INVALID", "kafka timestamp");
        out.add(new Event(
                future.key(),
                future.keyBytes(),
                future.value(),
                home,
                StatementRules.MAX_MILLIS + 1,
                null,
                a,
                null,
                future.reason(),
                future.messagePart()));
        // the rules pass these; PostgreSQL refuses them (the isolation path)
        out.add(keyed(
                a,
                with(base(a, "by-check"), s -> s.setUsername("refused-by-check")),
                home,
                "REFUSED",
                "SQLSTATE 23514"));
        out.add(keyed(
                a, with(base(a, "by-trigger-22"), s -> s.setAreaId("refused-22")), home, "REFUSED", "SQLSTATE 22023"));
        out.add(keyed(
                a, with(base(a, "by-trigger-54"), s -> s.setAreaId("refused-54")), home, "REFUSED", "SQLSTATE 54000"));
        out.add(keyed(overflowSecond, base(overflowSecond, "no-board-id"), home, "REFUSED", "SQLSTATE 22003"));
        return out;
    }

    private static Statement base(String board, String deliveryId) {
        return Statement.newBuilder(ProjectorHarness.statement(board, deliveryId, 1_796_032_800_000L))
                .build();
    }

    private static Statement with(Statement s, java.util.function.Consumer<Statement> change) {
        change.accept(s);
        return s;
    }

    private static byte[] wire(Statement s) {
        return CODEC.encode(Envelope.newBuilder().setStatement(s).build());
    }

    private static Event good(String board, int partition, String deliveryId) {
        return new Event(
                board,
                board.getBytes(StandardCharsets.UTF_8),
                wire(base(board, deliveryId)),
                partition,
                null,
                null,
                board,
                deliveryId,
                null,
                null);
    }

    private static Event raw(String key, int partition, byte[] value, String reason, String part) {
        return new Event(
                key, key.getBytes(StandardCharsets.UTF_8), value, partition, null, null, key, null, reason, part);
    }

    private static Event keyed(String key, Statement s, int partition, String reason, String part) {
        return new Event(
                key,
                key.getBytes(StandardCharsets.UTF_8),
                wire(s),
                partition,
                null,
                null,
                s.getBoard(),
                s.getDeliveryId(),
                reason,
                part);
    }

    private static void replace(byte[] in, byte[] what, byte[] with) {
        outer:
        for (int i = 0; i + what.length <= in.length; i++) {
            for (int j = 0; j < what.length; j++) {
                if (in[i + j] != what[j]) {
                    continue outer;
                }
            }
            System.arraycopy(with, 0, in, i, with.length);
            return;
        }
        throw new AssertionError("placeholder not found");
    }

    /** A board name with the given prefix that Kafka's default partitioner puts on {@code partition}. */
    static String boardOn(TopicLayout layout, int partition, String prefix) {
        for (int i = 0; ; i++) {
            String name = prefix + "-" + i;
            if (layout.partitionOf(name) == partition) {
                return name;
            }
        }
    }

    private static String header(ConsumerRecord<String, byte[]> r, String name) {
        var h = r.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    static List<String> deliveryIds(String url, DatabaseLogin db, String board) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(url, db.user(), db.password());
                PreparedStatement ps =
                        c.prepareStatement("SELECT r.id, r.delivery_id FROM records r JOIN boards b USING (board_id) "
                                + "WHERE b.name = ? ORDER BY r.id")) {
            ps.setString(1, board);
            try (ResultSet rs = ps.executeQuery()) {
                long expectId = 0;
                while (rs.next()) {
                    assertEquals(expectId++, rs.getLong(1), "IDs 0..n-1 without gaps");
                    out.add(rs.getString(2));
                }
            }
        }
        return out;
    }
}
