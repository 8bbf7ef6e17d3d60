package org.electorallog.dev;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.NoteSigner;
import org.electorallog.core.SignedNote;
import org.electorallog.infra.NginxServer;
import org.electorallog.infra.SharedStack;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.publisher.Publisher;
import org.electorallog.query.PublishedVoterPage;
import org.electorallog.schemas.ElectionStatements;
import org.electorallog.testkit.Poll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;

/**
 * A board served only from the published directory through nginx (issue 45 item 1, with the shipped
 * {@code infra/deploy/nginx-tiles.conf}): the voter page published beside it ({@code publish-tiles
 * --voter-page}) verifies a ballot in Chromium from the checkpoint and tiles alone, and so does
 * {@code electoral-log verify --tiles-url}; a tile changed in the directory makes both fail.
 */
class PublishedVoterPageTest {
    static final String BOARD = "published-page-" + Long.toString(System.nanoTime(), 36);
    static final int VOTES = 600; // two level-0 tiles, one of them partial

    @Test
    void aBallotVerifiesFromThePublishedFilesAlone() throws Exception {
        Path work = Files.createTempDirectory(Files.createDirectories(Path.of("target/tmp")), "published-page-")
                .toAbsolutePath();
        Path dir = work.resolve("published");
        try (DevEnvironment env = DevEnvironment.start(
                        SharedStack.get(),
                        false,
                        work.resolve("env"),
                        0,
                        NoteSigner.generate("published-page.electoral-log.local"));
                VoterBrowser chromium = VoterBrowser.open(Path.of("target/voter-page"))) {
            try (ElectoralLogProducer producer =
                    ElectoralLogProducer.create(SharedStack.get().kafkaBootstrap())) {
                ElectionStatements votes = new ElectionStatements(BOARD, 5);
                for (int i = 0; i < VOTES; i++) {
                    var unused = producer.publish(votes.vote("published-voter-" + i, 1_000 + i));
                }
                producer.flush();
            }
            LogClient client = new LogClient(env.api().baseUrl());
            Poll.until(
                    Duration.ofMinutes(1),
                    Duration.ofMillis(100),
                    "checkpoint " + VOTES + " witnessed",
                    () -> {
                        var r = client.send("/boards/" + BOARD + "/checkpoint?witnessed=true");
                        return r.statusCode() == 200
                                ? Checkpoint.parse(SignedNote.parse(r.body()).text())
                                        .size()
                                : -1L;
                    },
                    size -> size == VOTES);
            DatabaseLogin db = SharedStack.get().database();
            try (Publisher publisher = Publisher.open(new Publisher.Settings(db, dir, Duration.ofSeconds(1), false))) {
                assertEquals(VOTES, publisher.publish(BOARD).size());
                publisher.writePage(
                        PublishedVoterPage.files(Publisher.PAGE_DIR, org.electorallog.query.VoterLanguages.all()));
            }
            String leaf = Base64.getEncoder()
                    .encodeToString(client.proof(BOARD, 5, null).leafHash());
            try (NginxServer nginx =
                    NginxServer.start(Path.of("../infra/deploy/nginx-tiles.conf"), dir, work.resolve("nginx"))) {
                String page = nginx.baseUrl() + "/" + Publisher.PAGE_DIR + "/?board=" + BOARD + "&record=5#log_key="
                        + URLEncoder.encode(env.signer().verifierKey(), StandardCharsets.UTF_8) + "&witness_key="
                        + URLEncoder.encode(env.witness().verifierKey(), StandardCharsets.UTF_8) + "&quorum=1";
                String[] good = chromium.checkAt(page, "published-verified", null);
                assertEquals("verified", good[0], good[1]);
                String steps = chromium.driver.findElement(By.id("steps")).getText();
                assertTrue(steps.contains("built here from the published tiles"), steps);
                assertTrue(steps.contains("1 of 1 witness cosigned it (quorum 1)"), steps);
                // the ML-DSA-44 modules load from the publication too (decision 147)
                assertEquals(
                        Boolean.TRUE,
                        ((org.openqa.selenium.JavascriptExecutor) chromium.driver)
                                .executeScript("return typeof window.mlDsa44Verify === 'function'"),
                        "the published page loads its ML-DSA-44 check from the publication");
                String[] cli = verify(env, nginx.baseUrl() + "/" + BOARD, leaf);
                assertEquals("0", cli[0], cli[1] + cli[2]);

                // the publication's first tile changed: record 5's sibling is another hash
                Path tile = dir.resolve(BOARD).resolve("tile/0/000");
                byte[] bytes = Files.readAllBytes(tile);
                bytes[4 * 32] ^= 1;
                Files.write(tile, bytes);
                String[] bad = chromium.checkAt(page, "published-changed-tile", null);
                assertEquals("failed", bad[0], bad[1]);
                assertTrue(
                        bad[1].contains("built from the published tiles does not lead to the cosigned root"), bad[1]);
                String[] badCli = verify(env, nginx.baseUrl() + "/" + BOARD, leaf);
                assertEquals("1", badCli[0], badCli[1] + badCli[2]);
            }
        }
    }

    private static String[] verify(DevEnvironment env, String tilesUrl, String leaf) {
        return VerifyCli.of(env, BOARD, leaf, "--tiles-url", tilesUrl, "--record", "5");
    }
}
