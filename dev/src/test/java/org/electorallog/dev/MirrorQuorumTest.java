package org.electorallog.dev;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.electorallog.config.Setting;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.Cosigner;
import org.electorallog.core.NoteSigner;
import org.electorallog.core.SignedNote;
import org.electorallog.core.TlogPolicy;
import org.electorallog.core.WitnessPolicy;
import org.electorallog.infra.SharedStack;
import org.electorallog.launcher.MirrorCommand;
import org.electorallog.launcher.SealCommand;
import org.electorallog.mirror.MirrorServer;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.query.Role;
import org.electorallog.schemas.ElectionStatements;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.testkit.Poll;
import org.electorallog.witness.FollowedLogs;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Issue 68 item 4: a witness rule whose quorum is a mirror's cosignature. The projector asks the
 * mirror as it asks a witness; a mirror signs nothing on add-checkpoint and cosigns only what it
 * holds, so the sealed board stays unwitnessed until {@code mirror push} has given the mirror every
 * entry, and then the projector reads the mirror's cosignature from its monitoring prefix and the
 * seal counts as witnessed, with the mirror's cosignature on the witnessed checkpoint.
 */
class MirrorQuorumTest {
    static final String BOARD = "mirror-quorum-" + Long.toString(System.nanoTime(), 36);
    static final Path WORK = Path.of("target/mirror-quorum").toAbsolutePath();
    static final NoteSigner SIGNER = NoteSigner.generate("mirror-quorum.log");
    static final Cosigner.Key MIRROR_KEY = Cosigner.Key.generate("mirror.quorum.example/m1");

    static MirrorServer mirror;
    static DevEnvironment env;

    @BeforeAll
    static void start() throws Exception {
        MirrorBoardTest.MirrorServerState.delete(WORK);
        mirror = MirrorServer.start(
                "127.0.0.1",
                0,
                List.of(MIRROR_KEY),
                FollowedLogs.parse(List.of(Setting.ORIGIN_PREFIX.defaultValue + "* " + SIGNER.verifierKey())),
                WORK.resolve("state"),
                true,
                Duration.ofSeconds(30),
                8);
        String rule = "witness mirror " + MIRROR_KEY.verifierKey() + " http://127.0.0.1:" + mirror.port()
                + "\nquorum mirror\n";
        env = DevEnvironment.start(
                SharedStack.get(),
                false,
                Path.of("target/stack/mirror-quorum"),
                0,
                SIGNER,
                null,
                false,
                local -> WitnessPolicy.of(TlogPolicy.parse(rule)));
    }

    @AfterAll
    static void stop() {
        if (env != null) {
            env.close();
        }
        if (mirror != null) {
            mirror.close();
        }
    }

    @Test
    void aSealCountsAsWitnessedOnlyOnceTheMirrorHoldsTheBoard() throws Exception {
        ElectionStatements s = new ElectionStatements(BOARD, 69);
        try (ElectoralLogProducer producer =
                ElectoralLogProducer.create(SharedStack.get().kafkaBootstrap())) {
            for (int v = 0; v < 4; v++) {
                for (Statement st : s.voter(v)) {
                    producer.publish(st).get();
                }
            }
        }
        try (ElectoralLogProducer sealer = ElectoralLogProducer.builder(
                        SharedStack.get().kafkaBootstrap())
                .senderKey(env.signer().statementKey())
                .build()) {
            sealer.publish(SealCommand.statement(BOARD, "back-office", null, ElectionStatements.EPOCH_MILLIS + 9))
                    .get();
        }
        LogClient client = new LogClient(env.api().baseUrl());
        Poll.until(
                Duration.ofMinutes(1),
                Duration.ofMillis(100),
                "the sealed checkpoint of " + BOARD,
                () -> {
                    var r = client.send("/boards/" + BOARD + "/checkpoint");
                    return r.statusCode() == 200
                            ? Checkpoint.parse(SignedNote.parse(r.body()).text())
                                    .size()
                            : -1L;
                },
                size -> size == 21);
        // the mirror holds nothing of the board: nothing can be witnessed, however many rounds ran
        assertEquals(
                404,
                client.send("/boards/" + BOARD + "/checkpoint?witnessed=true").statusCode());

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int pushed = new CommandLine(
                        new MirrorCommand.Push(new PrintStream(out, true, StandardCharsets.UTF_8), System.err))
                .execute(
                        "--mirror",
                        "http://127.0.0.1:" + mirror.port(),
                        "--url",
                        env.api().baseUrl(),
                        "--board",
                        BOARD,
                        "--token",
                        env.tokens().get(Role.OBSERVER));
        assertEquals(0, pushed, out.toString(StandardCharsets.UTF_8));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("held at size 21"), out.toString());

        VoterPageTest.awaitWitnessed(env, BOARD, 21);
        String witnessed =
                client.send("/boards/" + BOARD + "/checkpoint?witnessed=true").body();
        Cosigner.Verifier.parse(MIRROR_KEY.verifierKey()).verify(SignedNote.parse(witnessed));
    }
}
