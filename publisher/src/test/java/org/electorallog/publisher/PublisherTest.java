package org.electorallog.publisher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.core.NoteVerifier;
import org.electorallog.core.SigningKey;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.schemas.ElectionStatements;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.store.ProjectionDatabase;
import org.electorallog.store.SqlSealingKeys;
import org.electorallog.verifier.BoardVerifier;
import org.electorallog.verifier.TlogFiles;
import org.electorallog.verifier.Verification;
import org.electorallog.verifier.VerifyOptions;
import org.junit.jupiter.api.Test;

/**
 * The static publication of a real projection (issue 45 item 1): a round writes each board in the
 * tlog-tiles layout, which {@code verify-board --dir} verifies whole (entries and signatures
 * included); later rounds add only what the new checkpoint needs and remove the partial forms of
 * the tiles that became full; a second publisher does not get the lock.
 */
class PublisherTest {
    /** Votes {@code from} to {@code to} of a board (users {@code prefix + i}, a generator seeded by the range). */
    static List<Statement> statements(String board, String prefix, int from, int to) {
        ElectionStatements made = new ElectionStatements(board, from);
        List<Statement> out = new ArrayList<>();
        for (int i = from; i < to; i++) {
            out.add(made.vote(prefix + i, 1_000 + i));
        }
        return out;
    }

    static Verification verify(Path dir, String board) throws Exception {
        return BoardVerifier.verify(
                TlogFiles.directory(dir.resolve(board)),
                new VerifyOptions(
                        List.of(NoteVerifier.parse(Projection.SIGNER.verifierKey())), null, List.of(), 0, List.of()),
                (d, t, s) -> {});
    }

    @Test
    void roundsPublishWhatEachCheckpointNeedsAndPruneOldPartialTiles() throws Exception {
        String board = "published-" + Long.toString(System.nanoTime(), 36);
        String small = "small-" + Long.toString(System.nanoTime(), 36);
        Path dir = Files.createTempDirectory(Files.createDirectories(Path.of("target/tmp")), "published-");
        try (Projection p = Projection.start("rounds");
                Publisher publisher = Publisher.open(p.publishing(dir, true));
                Publisher second = Publisher.open(p.publishing(dir, true))) {
            assertTrue(publisher.holdsLock());
            assertFalse(second.holdsLock(), "one publisher writes a directory at a time");

            p.publish(statements(board, "v-", 0, 700));
            p.publish(statements(small, "s-", 0, 3));
            p.awaitCheckpoint(board, 700);
            p.awaitCheckpoint(small, 3);
            assertEquals(700, publisher.round().get(board).size());
            Verification first = verify(dir, board);
            assertTrue(first.verified(), first.problems().toString());
            assertEquals(700, first.entries(), "every entry published and hashed");
            assertEquals(700, first.unsigned(), "and its signature bundle read");
            assertTrue(verify(dir, small).verified());
            assertTrue(Files.exists(dir.resolve(board).resolve("tile/0/002.p/188")));
            assertEquals(0, publisher.round().get(board).files(), "nothing new: nothing written");

            p.publish(statements(board, "v-", 700, 1000));
            p.awaitCheckpoint(board, 1000);
            BoardPublication.Outcome second1000 = publisher.round().get(board);
            assertEquals(700, second1000.previous());
            assertTrue(verify(dir, board).verified());
            Path published = dir.resolve(board);
            assertTrue(Files.exists(published.resolve("tile/0/002")), "tile 2 is full now");
            assertFalse(Files.exists(published.resolve("tile/0/002.p")), "so its partial forms are gone");
            assertFalse(Files.exists(published.resolve("tile/entries/002.p")));
            assertFalse(Files.exists(published.resolve("signatures/002.p")));
            assertTrue(Files.exists(published.resolve("tile/0/003.p/232")));
            assertTrue(Files.exists(published.resolve("tile/1/000.p/3")));

            p.publish(statements(board, "v-", 1000, 1100));
            p.awaitCheckpoint(board, 1100);
            publisher.round();
            Verification third = verify(dir, board);
            assertTrue(third.verified(), third.problems().toString());
            assertEquals(1100, third.size());
            assertFalse(Files.exists(published.resolve("tile/0/003.p")));
            assertTrue(Files.exists(published.resolve("tile/0/004.p/76")));
            assertTrue(
                    Files.exists(published.resolve("tile/1/000.p/2")),
                    "a level-1 tile still partial keeps its older widths: a client holding the first checkpoint "
                            + "has no full tile to fall back on");
        }
    }

    /**
     * Without {@code entries}, the bundles whose every entry is in the committed form (issue 46) are
     * published all the same, holding no personal value, and the board verifies whole from them (every
     * entry hashed, every sender signature checked); a board in the clear gets its hash tiles only.
     */
    @Test
    void theBundlesOfTheCommittedFormArePublishedToAnyone() throws Exception {
        String committed = "committed-" + Long.toString(System.nanoTime(), 36);
        String inTheClear = "clear-" + Long.toString(System.nanoTime(), 36);
        Path dir = Files.createTempDirectory(Files.createDirectories(Path.of("target/tmp")), "committed-");
        DatabaseLogin db = Projection.STACK.database();
        try (Projection p = Projection.start("committed");
                HikariDataSource keysDb = ProjectionDatabase.pool(p.jdbcUrl(), db.user(), db.password(), 2, "keys");
                Publisher publisher = Publisher.open(p.publishing(dir, false))) {
            try (ElectoralLogProducer producer = ElectoralLogProducer.builder(Projection.STACK.kafkaBootstrap())
                    .topic(p.topic())
                    .senderKey(SigningKey.generate())
                    .committedForm(new SqlSealingKeys(keysDb))
                    .build()) {
                for (Statement s : statements(committed, "committed-voter-", 0, 300)) {
                    s.setSenderPublicKey(ByteBuffer.allocate(0)); // the producer's key, which signs it
                    producer.publish(s);
                }
                producer.flush();
            }
            p.publish(statements(inTheClear, "clear-voter-", 0, 10));
            p.awaitCheckpoint(committed, 300);
            p.awaitCheckpoint(inTheClear, 10);
            publisher.round();

            Verification v = verify(dir, committed);
            assertTrue(v.verified(), v.problems().toString());
            assertEquals(300, v.entries(), "every entry read from the published bundles");
            assertEquals(300, v.signed(), "and every sender signature checked");
            Path board = dir.resolve(committed);
            assertTrue(Files.exists(board.resolve("tile/entries/001.p/44")));
            assertTrue(Files.exists(board.resolve("signatures/001.p/44")));
            try (var files = Files.walk(board)) {
                for (Path f : files.filter(Files::isRegularFile).toList()) {
                    String text = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
                    for (String value : List.of("committed-voter-", "example.org", "10.0.0.1")) {
                        assertFalse(text.contains(value), f + " holds " + value);
                    }
                }
            }
            assertFalse(Files.exists(dir.resolve(inTheClear).resolve("tile/entries")), "format 1: observers only");
            Verification clear = verify(dir, inTheClear);
            assertTrue(clear.verified(), clear.problems().toString());
            assertEquals(0, clear.entries());
        }
    }
}
