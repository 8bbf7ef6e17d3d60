package org.electorallog.mirror;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.Cosigner;
import org.electorallog.core.Hashes;
import org.electorallog.core.Hex;
import org.electorallog.core.NoteSigner;
import org.electorallog.core.NoteVerifier;
import org.electorallog.core.ProofBuilder;
import org.electorallog.core.Range;
import org.electorallog.core.SignedNote;
import org.electorallog.core.SubtreeProof;
import org.electorallog.core.SubtreeRequest;
import org.electorallog.core.TileLayout;
import org.electorallog.core.TiledFiles;
import org.electorallog.core.WitnessRequest;
import org.electorallog.witness.FollowedLogs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The mirror over real HTTP, fed by the client as a publisher feeds it: every entry and tile held
 * and served in the tlog-tiles layout, its cosignatures of both kinds, packages that do not match
 * the checkpoint refused, an interrupted upload resumed, each tlog-mirror status code, and no
 * rollback after a restart or from a mirror that lost its state.
 */
class MirrorServerTest {
    @TempDir
    Path state;

    final NoteSigner logKey = NoteSigner.generate("log.example");
    final Cosigner.Key mirrorKey = Cosigner.Key.generate("mirror.example/m1");
    final Cosigner.Key mirrorPqKey = Cosigner.Key.generateMlDsa44("mirror.example/m1");
    final TiledLog log = new TiledLog("log.example/board-a", logKey);
    final HttpClient http = HttpClient.newHttpClient();
    MirrorServer server;

    @BeforeEach
    void start() throws IOException {
        server = startMirror(true);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    MirrorServer startMirror(boolean initialise) throws IOException {
        FollowedLogs logs = FollowedLogs.parse(List.of("log.example/* " + logKey.verifierKey()));
        return MirrorServer.start(
                "127.0.0.1", 0, List.of(mirrorKey, mirrorPqKey), logs, state, initialise, Duration.ofSeconds(5), 8);
    }

    String url() {
        return "http://127.0.0.1:" + server.port();
    }

    String originHash() {
        return Hex.encode(Hashes.sha256(log.origin.getBytes(StandardCharsets.UTF_8)));
    }

    HttpResponse<byte[]> get(String path) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create(url() + path)).build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    HttpResponse<String> post(String path, byte[] body) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create(url() + path))
                        .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** The mirror's served checkpoint, verified with the log's key and both of the mirror's keys. */
    Checkpoint servedCheckpoint() throws Exception {
        HttpResponse<byte[]> r = get("/" + originHash() + "/checkpoint");
        assertEquals(200, r.statusCode());
        String note = new String(r.body(), StandardCharsets.UTF_8);
        Checkpoint cp = Checkpoint.open(note, List.of(NoteVerifier.parse(logKey.verifierKey())));
        SignedNote signed = SignedNote.parse(note);
        Cosigner.Verifier.parse(mirrorKey.verifierKey()).verify(signed);
        Cosigner.Verifier.parse(mirrorPqKey.verifierKey()).verify(signed);
        return cp;
    }

    /** Every tile and bundle a tree of {@code size} has, fetched from the mirror and compared with the log's. */
    void assertServesTheLog(long size) throws Exception {
        List<String> paths = new ArrayList<>();
        long bundles = (size + 255) / 256;
        for (long t = 0; t < bundles; t++) {
            paths.add(TileLayout.entriesPath(t, TileLayout.width(0, t, size)));
        }
        for (int level = 0; level < 3; level++) {
            long hashes = size >>> (8 * level);
            for (long t = 0; t * 256 < hashes; t++) {
                paths.add(TileLayout.tilePath(level, t, TileLayout.width(level, t, size)));
            }
        }
        for (String p : paths) {
            HttpResponse<byte[]> r = get("/" + originHash() + "/" + p);
            assertEquals(200, r.statusCode(), p);
            assertArrayEquals(log.file(p, size), r.body(), p);
        }
    }

    @Test
    void aMirrorFedByTheClientHoldsEveryEntryAndServesItAsTiles() throws Exception {
        MirrorClient client = new MirrorClient(url());
        log.grow(1000);
        MirrorClient.Pushed first = client.push(log.at(1000));
        assertEquals(1000, first.size());
        assertEquals(1000, first.entriesSent());
        // the 200's lines are the mirror's cosignatures of both kinds on the log's checkpoint
        SignedNote cosigned = SignedNote.parse(log.checkpoint(1000) + first.cosignatures());
        Cosigner.Verifier.parse(mirrorKey.verifierKey()).verify(cosigned);
        Cosigner.Verifier.parse(mirrorPqKey.verifierKey()).verify(cosigned);
        assertEquals(1000, servedCheckpoint().size());
        assertServesTheLog(1000);
        // sign-subtree (tlog-mirror: as a witness handles it): the mirror checkpoint, which the mirror
        // cosigned, exchanged for its ML-DSA-44 cosignature of [512, 768); the log's checkpoint alone is not
        String mirrored = new String(get("/" + originHash() + "/checkpoint").body(), StandardCharsets.UTF_8);
        var tiles = log.at(1000).tilesAt(1000);
        byte[] hash =
                ProofBuilder.hashRanges(List.of(new Range(512, 768)), tiles).get(0);
        List<byte[]> proof = ProofBuilder.hashRanges(SubtreeProof.ranges(512, 768, 1000), tiles);
        HttpResponse<String> subtree = post(
                "/sign-subtree",
                new SubtreeRequest(512, 768, hash, proof, mirrored).format().getBytes(StandardCharsets.UTF_8));
        assertEquals(200, subtree.statusCode(), subtree.body());
        Cosigner.Verifier.parse(mirrorPqKey.verifierKey())
                .verifySubtree(
                        log.origin,
                        512,
                        768,
                        hash,
                        SignedNote.parse(log.checkpoint(1000) + subtree.body())
                                .signatures()
                                .get(1));
        assertEquals(
                403,
                post(
                                "/sign-subtree",
                                new SubtreeRequest(512, 768, hash, proof, log.checkpoint(1000))
                                        .format()
                                        .getBytes(StandardCharsets.UTF_8))
                        .statusCode());

        // the log grows to a size inside a tile: only the entries the mirror lacks are sent
        log.grow(1300);
        MirrorClient.Pushed second = client.push(log.at(1300));
        assertEquals(300, second.entriesSent());
        assertEquals(1300, servedCheckpoint().size());
        assertServesTheLog(1300);
        // the same checkpoint again: cosigned, nothing sent
        assertEquals(0, client.push(log.at(1300)).entriesSent());

        // a restart keeps the copy: the mirror goes on from its next entry
        server.close();
        server = startMirror(false);
        log.grow(2600);
        MirrorClient.Pushed third = new MirrorClient(url()).push(log.at(2600));
        assertEquals(1300, third.entriesSent());
        assertServesTheLog(2600);
        assertEquals(2600, servedCheckpoint().size());
    }

    /** An add-entries body for {@code [start, end)} of the log at {@code size}, packages as the spec lays them out. */
    byte[] body(long start, long size, int packagesToSend, int corruptEntry) {
        TiledFiles files = log.at(size);
        List<AddEntries.Package> packages = new ArrayList<>();
        List<long[]> canonical = AddEntries.canonical(start, size);
        for (long[] p : canonical.subList(0, Math.min(packagesToSend, canonical.size()))) {
            List<byte[]> entries = new ArrayList<>();
            for (long i = p[1]; i < p[2]; i++) {
                byte[] e = log.entries.get((int) i).clone();
                if (i == corruptEntry) {
                    e[0] ^= 1;
                }
                entries.add(e);
            }
            List<byte[]> proof = ProofBuilder.hashRanges(SubtreeProof.ranges(p[0], p[2], size), files.tilesAt(size));
            packages.add(new AddEntries.Package(p[0], p[1], p[2], entries, proof));
        }
        return AddEntries.request(new AddEntries.Header(log.origin, start, size), packages);
    }

    HttpResponse<String> addCheckpoint(long old, long size) throws Exception {
        List<byte[]> proof = old == 0 || old == size
                ? List.of()
                : ProofBuilder.consistency(old, size, log.at(size).tilesAt(size));
        return post(
                "/add-checkpoint",
                new WitnessRequest(old, proof, log.checkpoint(size)).format().getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aPackageThatDoesNotMatchTheCheckpointIsRefusedAndAnInterruptedUploadResumes() throws Exception {
        log.grow(1100);
        assertEquals(200, addCheckpoint(0, 1100).statusCode());
        // one changed byte in entry 600 (the third package): the first two are kept, the third refused
        HttpResponse<String> bad = post("/add-entries", body(0, 1100, 5, 600));
        assertEquals(422, bad.statusCode(), bad.body());
        assertTrue(bad.body().contains("[512, 768)"), bad.body());
        assertEquals(404, get("/" + originHash() + "/checkpoint").statusCode(), "nothing cosigned");
        // a body of two packages (a client cut off, or sending a prefix): 202 with the next entry
        HttpResponse<String> part = post("/add-entries", body(512, 1100, 2, -1));
        assertEquals(202, part.statusCode(), part.body());
        assertEquals(
                AddEntries.INFO_TYPE, part.headers().firstValue("Content-Type").orElseThrow());
        assertEquals(new AddEntries.Info(1100, 1024), AddEntries.Info.parse(part.body()));
        // a start past the next entry: 409 with it
        HttpResponse<String> ahead = post("/add-entries", body(1050, 1100, 1, -1));
        assertEquals(409, ahead.statusCode());
        assertEquals(1024, AddEntries.Info.parse(ahead.body()).nextEntry());
        // the rest, from the next entry: 200 and the checkpoint served
        HttpResponse<String> rest = post("/add-entries", body(1024, 1100, 32, -1));
        assertEquals(200, rest.statusCode(), rest.body());
        assertEquals(1100, servedCheckpoint().size());
        assertServesTheLog(1100);
    }

    @Test
    void answersWithTlogMirrorsStatusCodes() throws Exception {
        log.grow(300);
        // before any pending checkpoint: 422
        assertEquals(422, post("/add-entries", body(0, 300, 2, -1)).statusCode());
        assertEquals(200, addCheckpoint(0, 300).statusCode());
        assertEquals("", addCheckpoint(300, 300).body(), "the mirror signs nothing on add-checkpoint");
        // a log it does not mirror: 404
        TiledLog other = new TiledLog("elsewhere.example/log", logKey).grow(10);
        byte[] unknown = AddEntries.request(new AddEntries.Header(other.origin, 0, 10), List.of());
        assertEquals(404, post("/add-entries", unknown).statusCode());
        // an upload_end that is no pending checkpoint: 409 saying the pending size
        HttpResponse<String> otherEnd = post("/add-entries", body(0, 200, 1, -1));
        assertEquals(409, otherEnd.statusCode());
        assertEquals(new AddEntries.Info(300, 0), AddEntries.Info.parse(otherEnd.body()));
        // a negative upload_start (a uint64 above 2^63): 400; nothing is made for an origin without a
        // pending checkpoint
        assertEquals(
                400,
                post("/add-entries", AddEntries.request(new AddEntries.Header(log.origin, -1, 300), List.of()))
                        .statusCode());
        byte[] unpended = AddEntries.request(new AddEntries.Header("log.example/board-z", 0, 0), List.of());
        assertEquals(422, post("/add-entries", unpended).statusCode());
        String zHash = Hex.encode(Hashes.sha256("log.example/board-z".getBytes(StandardCharsets.UTF_8)));
        assertTrue(!java.nio.file.Files.exists(state.resolve(zHash)), "no directory for a log never pended");
        // a header cut short, and a first package cut short: 400
        assertEquals(400, post("/add-entries", new byte[] {0, 5, 'l'}).statusCode());
        byte[] whole = body(0, 300, 2, -1);
        assertEquals(
                400, post("/add-entries", java.util.Arrays.copyOf(whole, 200)).statusCode());
        // GET of a tile it does not hold, and a path that is no tile: 404
        assertEquals(404, get("/" + originHash() + "/tile/0/000").statusCode());
        assertEquals(404, get("/" + originHash() + "/next").statusCode());
        assertEquals(405, get("/add-entries").statusCode());
    }

    @Test
    void aMirrorDoesNotRollBackAndOneThatLostItsStateIsRefused() throws Exception {
        log.grow(700);
        MirrorClient client = new MirrorClient(url());
        client.push(log.at(700));
        // the log (or someone with its key) presents the older size 500: the mirror's pending size
        // is 700, so the checkpoint is refused and the mirror checkpoint stays at 700
        IOException rollback = assertThrows(IOException.class, () -> client.push(log.at(500)));
        assertTrue(rollback.getMessage().contains("past the log's"), rollback.getMessage());
        assertEquals(700, servedCheckpoint().size());
        // a fork at the same size: another root at 700 is a split view (422 from add-checkpoint)
        TiledLog forked = new TiledLog(log.origin, logKey, "other").grow(700);
        HttpResponse<String> split = post(
                "/add-checkpoint",
                new WitnessRequest(700, List.of(), forked.checkpoint(700))
                        .format()
                        .getBytes(StandardCharsets.UTF_8));
        assertEquals(422, split.statusCode(), split.body());
        server.close();
        // restarted from its state: still at 700
        server = startMirror(false);
        assertEquals(700, servedCheckpoint().size());
        server.close();
        // a state directory that is gone is refused, not started empty
        deleteTree(state);
        assertThrows(IOException.class, () -> startMirror(false));
        server = startMirror(true);
    }

    static void deleteTree(Path dir) throws IOException {
        try (var files = java.nio.file.Files.walk(dir)) {
            for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                java.nio.file.Files.delete(p);
            }
        }
    }
}
