package org.electorallog.witness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.electorallog.core.Cosigner;
import org.electorallog.core.NoteSigner;
import org.electorallog.core.SignedNote;
import org.electorallog.core.WitnessRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The witness over real HTTP: each tlog-witness status, rollbacks across restarts, concurrent submissions. */
class WitnessServerTest {
    @TempDir
    Path state;

    final NoteSigner logKey = NoteSigner.generate("log.example");
    final Cosigner.Key witnessKey = Cosigner.Key.generate("witness.example/w1");
    final GrowingLog log = new GrowingLog("log.example/board-a", logKey);
    final HttpClient http = HttpClient.newHttpClient();
    WitnessServer server;

    @BeforeEach
    void start() throws IOException {
        server = startWitness();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    WitnessServer startWitness() throws IOException {
        FollowedLogs logs = FollowedLogs.parse(List.of("log.example/* " + logKey.verifierKey()));
        return WitnessServer.start("127.0.0.1", 0, witnessKey, logs, state);
    }

    HttpResponse<String> add(String body) throws IOException, InterruptedException {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/add-checkpoint"))
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** Verifies a 200's body as the witness's cosignature on the checkpoint at {@code size}. */
    void assertCosigned(HttpResponse<String> r, long size) throws Exception {
        assertEquals(200, r.statusCode(), r.body());
        SignedNote cosigned = SignedNote.parse(log.checkpoint(size) + r.body());
        Cosigner.Verifier.parse(witnessKey.verifierKey()).verify(cosigned);
    }

    @Test
    void cosignsAGrowingLogAndSaysItsSizeOnAConflict() throws Exception {
        log.grow(300);
        assertCosigned(add(log.request(0, 5)), 5);
        assertCosigned(add(log.request(5, 300)), 300);
        assertCosigned(add(log.request(300, 300)), 300); // the same checkpoint again
        HttpResponse<String> conflict = add(log.request(5, 300));
        assertEquals(409, conflict.statusCode());
        assertEquals("300\n", conflict.body());
        assertEquals(
                Witness.SIZE_TYPE, conflict.headers().firstValue("Content-Type").orElseThrow());
    }

    @Test
    void refusesWithTheSpecsStatusCodes() throws Exception {
        log.grow(40);
        assertCosigned(add(log.request(0, 10)), 10);
        // unknown origin: 404
        GrowingLog other = new GrowingLog("elsewhere.example/log", logKey).grow(3);
        assertEquals(404, add(other.request(0, 3)).statusCode());
        // signed by a key the witness does not trust for the origin: 403
        GrowingLog impostor = new GrowingLog(log.origin, NoteSigner.generate("log.example")).grow(40);
        assertEquals(403, add(impostor.request(10, 20)).statusCode());
        // old size above the checkpoint's: 400
        assertEquals(400, add(log.request(10, 20).replace("old 10", "old 30")).statusCode());
        // malformed: 400
        assertEquals(400, add("old 10\nnot base64!\n\n" + log.checkpoint(20)).statusCode());
        // a consistency proof with one changed byte: 422
        WitnessRequest good = WitnessRequest.parse(log.request(10, 20));
        List<byte[]> proof = new ArrayList<>(good.proof());
        byte[] first = proof.get(0).clone();
        first[0] ^= 0x01;
        proof.set(0, first);
        HttpResponse<String> badProof = add(new WitnessRequest(10, proof, good.checkpointNote()).format());
        assertEquals(422, badProof.statusCode(), badProof.body());
        // a proof from 0 must be empty: 422 (on a board the witness has not seen, so the old size 0 is right)
        GrowingLog boardB = new GrowingLog("log.example/board-b", logKey).grow(20);
        WitnessRequest fromZero = WitnessRequest.parse(boardB.request(10, 20));
        assertEquals(
                422,
                add(new WitnessRequest(0, fromZero.proof(), fromZero.checkpointNote()).format())
                        .statusCode());
        // the same size with another root (a split view): 409 with the witness's size
        HttpResponse<String> forked = add(new WitnessRequest(
                        10, List.of(), new org.electorallog.core.Checkpoint(log.origin, 10, new byte[32]).sign(logKey))
                .format());
        assertEquals(409, forked.statusCode());
        assertEquals("10\n", forked.body());
        // nothing above was cosigned: the witness still stands at 10
        assertEquals("10\n", add(log.request(0, 20)).body());
    }

    @Test
    void aRestartedWitnessNeverAcceptsARollback() throws Exception {
        log.grow(700);
        assertCosigned(add(log.request(0, 600)), 600);
        server.close();
        server = startWitness();
        // a smaller tree, presented as new (old 0): the witness remembers 600
        HttpResponse<String> rollback = add(log.request(0, 100));
        assertEquals(409, rollback.statusCode());
        assertEquals("600\n", rollback.body());
        // presented from the witness's size: the old size is above the checkpoint's
        assertEquals(
                400, add(log.request(100, 100).replace("old 100", "old 600")).statusCode());
        // and it goes on from 600
        assertCosigned(add(log.request(600, 700)), 700);
        server.close();
        server = startWitness();
        assertEquals("700\n", add(log.request(600, 650)).body());
    }

    @Test
    void concurrentSubmissionsFromOneSizeCosignExactlyOne() throws Exception {
        log.grow(100);
        assertCosigned(add(log.request(0, 50)), 50);
        int n = 8;
        ExecutorService pool = Executors.newFixedThreadPool(n);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<HttpResponse<String>>> answers = new ArrayList<>();
        try {
            for (int i = 1; i <= n; i++) {
                String body = log.request(50, 50 + i * 5);
                Callable<HttpResponse<String>> call = () -> {
                    go.await();
                    return add(body);
                };
                answers.add(pool.submit(call));
            }
            go.countDown();
            long winner = -1;
            int cosigned = 0;
            List<String> conflicts = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                HttpResponse<String> r = answers.get(i).get();
                if (r.statusCode() == 200) {
                    cosigned++;
                    winner = 50 + (i + 1) * 5L;
                } else {
                    assertEquals(409, r.statusCode(), r.body());
                    conflicts.add(r.body());
                }
            }
            assertEquals(1, cosigned, "exactly one submission from size 50 may be cosigned");
            for (String c : conflicts) {
                assertEquals(winner + "\n", c, "every other one is told the winner's size");
            }
            assertEquals(winner + "\n", add(log.request(0, 50)).body());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void describesItselfAndRefusesOtherMethods() throws Exception {
        HttpResponse<String> about = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertTrue(about.body().contains(witnessKey.verifierKey()), about.body());
        HttpResponse<String> get = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/add-checkpoint"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(405, get.statusCode());
        assertEquals(
                413,
                add("old 0\n\n" + Base64.getEncoder().encodeToString(new byte[70_000]))
                        .statusCode());
    }
}
