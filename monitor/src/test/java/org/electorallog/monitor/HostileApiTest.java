package org.electorallog.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.zaxxer.hikari.HikariDataSource;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.EntryBundle;
import org.electorallog.core.NoteVerifier;
import org.electorallog.core.SignedNote;
import org.electorallog.core.SigningKey;
import org.electorallog.core.TileLayout;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.schemas.CanonicalStatement;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.statement.HeadsBoard;
import org.electorallog.store.ProjectionDatabase;
import org.electorallog.store.SqlSealingKeys;
import org.electorallog.verifier.LogEndpoint;
import org.junit.jupiter.api.Test;

/**
 * A monitor that never looks away (issue 61 items 3 and 9), against a hostile API ({@link
 * HostileApi}) in front of a real projection: a board that vanishes is a finding; every changed
 * entry is a finding and the look goes on past them; a withheld bundle is a finding and the reading
 * waits for it; bodies past what a file can hold and an entry nested 32,000 deep end nothing; an
 * observers-only bundle is a finding for anyone on a board in the committed form and on the heads
 * board, where it would hide a forked heads entry, and a notice on a board in the clear.
 */
class HostileApiTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static Path stateDir(String name) throws Exception {
        return Files.createTempDirectory(Files.createDirectories(Path.of("target/tmp")), "hostile-" + name + "-");
    }

    private static Monitor monitor(String token, Path state, List<String> reported, String url) {
        return new Monitor(
                new Monitor.Settings(
                        List.of(new LogEndpoint(url, token)),
                        List.of(NoteVerifier.parse(View.SIGNER.verifierKey())),
                        List.of(),
                        View.PREFIX,
                        List.of(),
                        state),
                new MonitorMetrics(),
                reported::add);
    }

    private static String id() {
        return Long.toString(System.nanoTime(), 36);
    }

    private static List<Finding.Kind> kinds(List<Finding> found) {
        return found.stream().map(Finding::kind).toList();
    }

    @Test
    void aBoardThatVanishesIsAFinding() throws Exception {
        String gone = "gone-" + id();
        String notFound = "notfound-" + id();
        List<String> reported = new ArrayList<>();
        try (View v = View.start("vanish");
                HostileApi api = new HostileApi(v.api().baseUrl())) {
            v.publish(MonitorTest.statements(gone, "g-", 0, 3));
            v.publish(MonitorTest.statements(notFound, "n-", 0, 3));
            v.awaitCheckpoint(gone, 3);
            v.awaitCheckpoint(notFound, 3);
            Monitor m = monitor(null, stateDir("vanish"), reported, api.baseUrl());
            assertEquals(List.of(), m.pass());
            api.rule((path, real) -> {
                if (path.equals("/boards")) {
                    try {
                        ObjectNode list = (ObjectNode) JSON.readTree(real.body());
                        ArrayNode kept = JSON.createArrayNode();
                        ((ArrayNode) list.get("boards")).forEach(b -> {
                            if (!b.get("board").asText().equals(gone)) {
                                kept.add(b);
                            }
                        });
                        list.set("boards", kept);
                        return HostileApi.Answer.body(JSON.writeValueAsBytes(list));
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                }
                return path.equals("/boards/" + notFound + "/checkpoint") ? HostileApi.Answer.status(404) : null;
            });
            List<Finding> found = m.pass();
            assertEquals(List.of(Finding.Kind.BOARD_VANISHED, Finding.Kind.BOARD_VANISHED), kinds(found));
            assertTrue(found.get(0).detail().contains("no longer lists board " + gone), found.toString());
            assertTrue(found.get(0).previous() != null, "the checkpoint verified before is the evidence");
            assertTrue(found.get(1).detail().contains("404 for the checkpoint of board " + notFound), found.toString());
            assertEquals(List.of(), m.pass(), "reported once a run");
        }
    }

    @Test
    void everyChangedEntryIsAFindingAndTheLookGoesOnPastThem() throws Exception {
        String board = "changed-" + id();
        Path state = stateDir("changed");
        List<String> reported = new ArrayList<>();
        try (View v = View.start("changed");
                HostileApi api = new HostileApi(v.api().baseUrl())) {
            v.publish(MonitorTest.statements(board, "e-", 0, 10));
            v.awaitCheckpoint(board, 10);
            Monitor m = monitor(View.OBSERVER, state, reported, api.baseUrl());
            assertEquals(List.of(), m.pass());
            v.publish(MonitorTest.statements(board, "e-", 10, 20));
            v.awaitCheckpoint(board, 20);
            String bundlePath = "/boards/" + board + "/" + TileLayout.entriesPath(0, 20);
            api.rule((path, real) -> {
                if (!path.equals(bundlePath)) {
                    return null;
                }
                try {
                    List<byte[]> entries = new ArrayList<>(EntryBundle.decode(real.body()));
                    for (int i : new int[] {12, 15}) {
                        entries.set(
                                i,
                                CanonicalStatement.encode(MonitorTest.statements(board, "forged-", i, i + 1)
                                        .get(0)));
                    }
                    return HostileApi.Answer.body(EntryBundle.encode(entries));
                } catch (org.electorallog.core.ProofException e) {
                    throw new IllegalStateException(e);
                }
            });
            List<Finding> found = m.pass();
            assertEquals(List.of(Finding.Kind.ENTRIES_DO_NOT_MATCH, Finding.Kind.ENTRIES_DO_NOT_MATCH), kinds(found));
            assertTrue(found.get(0).detail().startsWith("entry 12 does not hash"), found.toString());
            assertTrue(found.get(1).detail().startsWith("entry 15 does not hash"), found.toString());
            assertEquals(20, new MonitorState(state).read(board).orElseThrow().entriesRead());

            api.rule((path, real) -> null);
            v.publish(MonitorTest.statements(board, "e-", 20, 25));
            v.awaitCheckpoint(board, 25);
            assertEquals(List.of(), m.pass(), "the entries after them are read and match");
            assertEquals(25, new MonitorState(state).read(board).orElseThrow().entriesRead());
        }
    }

    @Test
    void aWithheldBundleIsAFindingAndTheReadingWaitsForIt() throws Exception {
        String board = "withheld-" + id();
        Path state = stateDir("withheld");
        List<String> reported = new ArrayList<>();
        try (View v = View.start("withheld");
                HostileApi api = new HostileApi(v.api().baseUrl())) {
            v.publish(MonitorTest.statements(board, "w-", 0, 5));
            v.awaitCheckpoint(board, 5);
            api.rule(HostileApi.on(p -> p.contains("/tile/entries/"), HostileApi.Answer.status(404)));
            Monitor m = monitor(View.OBSERVER, state, reported, api.baseUrl());
            List<Finding> found = m.pass();
            assertEquals(List.of(Finding.Kind.ENTRIES_WITHHELD), kinds(found));
            assertTrue(found.get(0).detail().contains("HTTP 404"), found.toString());
            MonitorState.Board s = new MonitorState(state).read(board).orElseThrow();
            assertEquals(
                    5, Checkpoint.parse(SignedNote.parse(s.checkpoint()).text()).size(), "the tiles verified");
            assertEquals(0, s.entriesRead(), "no entry counted read that was not");

            api.rule((path, real) -> null);
            assertEquals(List.of(), m.pass());
            assertEquals(5, new MonitorState(state).read(board).orElseThrow().entriesRead(), "read once served");
        }
    }

    @Test
    void bodiesPastWhatAFileHoldsAndDeepEntriesEndNothing() throws Exception {
        String board = "huge-" + id();
        Path state = stateDir("huge");
        List<String> reported = new ArrayList<>();
        try (View v = View.start("huge");
                HostileApi api = new HostileApi(v.api().baseUrl())) {
            v.publish(MonitorTest.statements(board, "h-", 0, 3));
            v.awaitCheckpoint(board, 3);
            Monitor m = monitor(View.OBSERVER, state, reported, api.baseUrl());

            api.rule(HostileApi.on(
                    p -> p.contains("/tile/entries/"), HostileApi.Answer.stream(LogEndpoint.MAX_ENTRY_BUNDLE + 65536)));
            assertEquals(List.of(), m.pass());
            assertTrue(
                    reported.stream()
                            .anyMatch(r -> r.contains("holds more, more than the " + LogEndpoint.MAX_ENTRY_BUNDLE)),
                    reported.toString());
            api.rule(HostileApi.on(p -> p.contains("/tile/"), HostileApi.Answer.announcing(1L << 40)));
            assertEquals(List.of(), m.pass());
            assertTrue(
                    reported.stream().anyMatch(r -> r.contains("announces 1099511627776 bytes")), reported.toString());

            byte[] deep = nested(32_000);
            api.rule((path, real) -> {
                if (!path.contains("/tile/entries/")) {
                    return null;
                }
                try {
                    List<byte[]> entries = new ArrayList<>(EntryBundle.decode(real.body()));
                    entries.set(1, deep);
                    return HostileApi.Answer.body(EntryBundle.encode(entries));
                } catch (org.electorallog.core.ProofException e) {
                    throw new IllegalStateException(e);
                }
            });
            List<Finding> found = m.pass();
            assertEquals(List.of(Finding.Kind.ENTRIES_DO_NOT_MATCH, Finding.Kind.ENTRIES_DO_NOT_MATCH), kinds(found));
            assertTrue(found.get(0).detail().startsWith("entry 1 does not hash"), found.toString());
            assertTrue(found.get(1).detail().contains("nested deeper than 64 levels"), found.toString());
            assertEquals(3, new MonitorState(state).read(board).orElseThrow().entriesRead());
        }
    }

    /**
     * An anonymous monitor: on a board in the committed form every bundle is public, so one answered
     * observers-only is a finding; so on the heads board, where a forked heads entry behind it would
     * otherwise go unseen (an observer's monitor reports that entry itself); on a board in the clear
     * it is a notice, and the reading stays where it was.
     */
    @Test
    void anObserversOnlyBundleIsAFindingOnACommittedBoardAndOnTheHeadsBoard() throws Exception {
        String committed = "committed-" + id();
        String clear = "clear-" + id();
        Path state = stateDir("committed");
        List<String> reported = new ArrayList<>();
        DatabaseLogin db = View.STACK.database();
        try (View v = View.start("committed");
                HostileApi api = new HostileApi(v.api().baseUrl());
                HikariDataSource keysDb = ProjectionDatabase.pool(v.jdbcUrl(), db.user(), db.password(), 2, "keys")) {
            try (ElectoralLogProducer producer = ElectoralLogProducer.builder(View.STACK.kafkaBootstrap())
                    .topic(v.topic())
                    .senderKey(SigningKey.generate())
                    .committedForm(new SqlSealingKeys(keysDb))
                    .build()) {
                for (Statement s : MonitorTest.statements(committed, "c-", 0, 5)) {
                    s.setSenderPublicKey(ByteBuffer.allocate(0));
                    producer.publish(s);
                }
                producer.flush();
            }
            v.publish(MonitorTest.statements(clear, "p-", 0, 5));
            v.awaitCheckpoint(committed, 5);
            v.awaitCheckpoint(clear, 5);
            String committedNote = new LogEndpoint(v.api().baseUrl(), null).checkpoint(committed);
            Checkpoint at5 = Checkpoint.parse(SignedNote.parse(committedNote).text());
            v.publish(List.of(
                    HeadsLookTest.entry(committed, at5.size(), at5.root(), HeadsBoard.deliveryId(committed, 5))));
            v.awaitCheckpoint(HeadsBoard.NAME, 1);

            Monitor anonymous = monitor(null, state, reported, api.baseUrl());
            assertEquals(List.of(), anonymous.pass());
            MonitorState read = new MonitorState(state);
            assertEquals(0, read.read(committed).orElseThrow().committedFrom(), "read in the committed form");
            assertEquals(5, read.read(committed).orElseThrow().entriesRead());
            assertEquals(0, read.read(clear).orElseThrow().entriesRead(), "a board in the clear: tiles only");
            assertTrue(
                    reported.stream()
                            .anyMatch(r -> r.contains("the entries of board " + clear)
                                    && r.contains("are not for this caller")),
                    reported.toString());
            assertEquals(1, read.read(HeadsBoard.NAME).orElseThrow().entriesRead(), "the heads entries are public");

            // a forked heads entry (another root for the committed board at size 5) hidden behind a 403
            byte[] otherRoot = at5.root().clone();
            otherRoot[0] ^= 1;
            v.publish(List.of(HeadsLookTest.entry(committed, 5, otherRoot, "head:" + committed + ":5-forked")));
            v.awaitCheckpoint(HeadsBoard.NAME, 2);
            try (ElectoralLogProducer producer = ElectoralLogProducer.builder(View.STACK.kafkaBootstrap())
                    .topic(v.topic())
                    .senderKey(SigningKey.generate())
                    .committedForm(new SqlSealingKeys(keysDb))
                    .build()) {
                for (Statement s : MonitorTest.statements(committed, "c-", 5, 8)) {
                    s.setSenderPublicKey(ByteBuffer.allocate(0));
                    producer.publish(s);
                }
                producer.flush();
            }
            v.awaitCheckpoint(committed, 8);
            api.rule(HostileApi.on(p -> p.contains("/tile/entries/"), HostileApi.Answer.status(403)));
            List<Finding> found = anonymous.pass();
            assertEquals(List.of(Finding.Kind.ENTRIES_WITHHELD, Finding.Kind.ENTRIES_WITHHELD), kinds(found));
            assertTrue(
                    found.stream()
                            .anyMatch(f ->
                                    f.board().equals(committed) && f.detail().contains("committed form since entry 0")),
                    found.toString());
            assertTrue(
                    found.stream()
                            .anyMatch(f -> f.board().equals(HeadsBoard.NAME)
                                    && f.detail().contains("heads board's entries hold no personal value")),
                    found.toString());

            // what it hid: an observer's monitor, served honestly, reports the forked heads entry
            List<Finding> seen = monitor(
                            View.OBSERVER,
                            stateDir("observer"),
                            new ArrayList<>(),
                            v.api().baseUrl())
                    .pass();
            assertTrue(
                    seen.stream()
                            .anyMatch(f -> f.kind() == Finding.Kind.ENTRIES_DO_NOT_MATCH
                                    && f.board().equals(HeadsBoard.NAME)
                                    && f.detail().contains("heads entry 1")),
                    seen.toString());
        }
    }

    /** Canonical statement bytes (ELS1) whose one field is arrays nested {@code depth} deep. */
    private static byte[] nested(int depth) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes("ELS1".getBytes(StandardCharsets.US_ASCII));
        out.write(0x07);
        out.write(9);
        out.writeBytes("Statement".getBytes(StandardCharsets.US_ASCII));
        out.write(1);
        out.write(4);
        out.writeBytes("body".getBytes(StandardCharsets.US_ASCII));
        for (int i = 0; i < depth; i++) {
            out.write(0x08);
            out.write(1);
        }
        out.write(0x00);
        return out.toByteArray();
    }
}
