package org.electorallog.monitor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.electorallog.core.SignatureBundle;
import org.electorallog.core.SigningKey;
import org.electorallog.schemas.CanonicalStatement;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.verifier.EntryChecks;
import org.electorallog.verifier.Problem;
import org.junit.jupiter.api.Test;

/**
 * verify-board's checks of entries that a projector would never have logged, on canonical bytes
 * made by the schemas encoder and read back with core alone: a record after the seal, a
 * continuation that is not first, a statement of another board, bytes that are no statement, a
 * system signature under no key given.
 */
class EntryChecksTest {
    @Test
    void whatAnHonestProjectorNeverLogsIsReported() {
        List<String> problems = new ArrayList<>();
        EntryChecks c = new EntryChecks("b", List.of(), null, List.of(), p -> problems.add(p.message()));
        byte[] root = new byte[32];
        root[31] = 7;
        c.bundle(
                0,
                List.of(
                        entry(BoardVerifierTest.continuation("b", "a", 9, root)),
                        entry(MonitorTest.statements("b", "v-", 0, 1).get(0)),
                        entry(BoardVerifierTest.continuation("b", "a", 9, root)),
                        entry(MonitorTest.statements("other", "v-", 1, 2).get(0)),
                        entry(BoardVerifierTest.seal("b")),
                        entry(MonitorTest.statements("b", "v-", 2, 3).get(0)),
                        "ELS1 no statement".getBytes(java.nio.charset.StandardCharsets.US_ASCII)),
                null);
        assertEquals(
                List.of(
                        "entry 2 is a LOG_CONTINUATION, which only a board's first record may be",
                        "entry 3 is a statement of board 'other', not of 'b'",
                        "entry 5 follows the seal at entry 4: the sealed board grew",
                        "entry 6 is not a canonical statement: canonical value is not a record"),
                problems);
        assertEquals("a", c.continuation().previousBoard());
        assertEquals(9, c.continuation().previousSize());
        assertArrayEquals(root, c.continuation().previousRoot());
        assertEquals(4, c.sealIndex());
        assertEquals(1, c.bundlesWithoutSignatures());
    }

    @Test
    void systemSignaturesAreCheckedWithTheKeysGiven() {
        SigningKey system = SigningKey.generate();
        SigningKey other = SigningKey.generate();
        byte[] e = entry(MonitorTest.statements("b", "v-", 0, 1).get(0));
        List<String> problems = new ArrayList<>();
        EntryChecks c =
                new EntryChecks(null, List.of(system.publicKey()), null, List.of(), p -> problems.add(p.message()));
        c.bundle(
                0,
                List.of(e, e),
                List.of(
                        new SignatureBundle.Signatures(0, null, system.sign(e)),
                        new SignatureBundle.Signatures(0, null, other.sign(e))));
        assertEquals(List.of("entry 1's system signature verifies with none of the system keys given"), problems);
        assertEquals("b", c.board(), "the first entry's board");
        assertEquals(2, c.unsigned());
    }

    /**
     * The audit's signature policy (issue 62 item 5: the audit calls these checks): an entry without
     * a sender signature is a problem when senders are required, one without a system signature when
     * system signatures are; a signed entry is not; and each problem says what it is about.
     */
    @Test
    void requiredSignaturesAreProblemsWhenMissing() {
        SigningKey sender = SigningKey.generate();
        SigningKey system = SigningKey.generate();
        Statement s = MonitorTest.statements("b", "v-", 0, 1).get(0);
        s.setSenderPublicKey(java.nio.ByteBuffer.wrap(sender.publicKey()));
        byte[] e = entry(s);
        List<Problem> problems = new ArrayList<>();
        EntryChecks c = new EntryChecks("b", List.of(system.publicKey()), null, List.of(), true, true, problems::add);
        c.bundle(
                0,
                List.of(e, e, e),
                List.of(
                        new SignatureBundle.Signatures(0, sender.sign(e), system.sign(e)),
                        new SignatureBundle.Signatures(0, null, system.sign(e)),
                        new SignatureBundle.Signatures(0, sender.sign(e), null)));
        assertEquals(
                List.of(
                        new Problem(
                                Problem.Kind.UNSIGNED,
                                1,
                                "entry 1 has no sender signature, and every statement must carry one"),
                        new Problem(
                                Problem.Kind.UNSIGNED,
                                2,
                                "entry 2 has no system signature, and every statement must carry one by a system key given")),
                problems);
        assertEquals(2, c.signed());
        assertEquals(1, c.unsigned());
        List<Problem> relaxed = new ArrayList<>();
        new EntryChecks("b", List.of(system.publicKey()), null, List.of(), relaxed::add)
                .bundle(
                        0,
                        List.of(e, e),
                        List.of(
                                new SignatureBundle.Signatures(0, null, system.sign(e)),
                                new SignatureBundle.Signatures(0, sender.sign(e), null)));
        assertEquals(List.of(), relaxed, "verify-board counts what is unsigned");
    }

    /**
     * Issue 61 item 1: a statement under a name only the log writes must fit its shape and name the
     * log's key as its sender; a vote under the seal's ID and a seal naming another sender are
     * reported, the log's own seal is not.
     */
    @Test
    void theLogsOwnStatementsMustNameTheLogsKey() {
        org.electorallog.core.NoteSigner log = org.electorallog.core.NoteSigner.generate("entries.example");
        List<org.electorallog.core.NoteVerifier> keys =
                List.of(org.electorallog.core.NoteVerifier.parse(log.verifierKey()));
        Statement squat = Statement.newBuilder(
                        MonitorTest.statements("b", "v-", 0, 1).get(0))
                .setDeliveryId("seal:b")
                .build();
        Statement foreignSeal = BoardVerifierTest.seal("b");
        foreignSeal.setSenderPublicKey(
                java.nio.ByteBuffer.wrap(SigningKey.generate().publicKey()));
        Statement ownSeal = BoardVerifierTest.seal("b");
        ownSeal.setSenderPublicKey(java.nio.ByteBuffer.wrap(log.publicKey()));
        List<String> problems = new ArrayList<>();
        new EntryChecks("b", List.of(), null, keys, p -> problems.add(p.message()))
                .bundle(0, List.of(entry(squat), entry(foreignSeal)), null);
        assertEquals(2, problems.size(), problems.toString());
        assertTrue(
                problems.get(0).startsWith("entry 0 uses a name only the log writes: a board's seal"), problems.get(0));
        assertTrue(
                problems.get(1).contains("is one of the log's own statements but names sender key"), problems.get(1));
        List<String> none = new ArrayList<>();
        new EntryChecks("b", List.of(), null, keys, p -> none.add(p.message()))
                .bundle(0, List.of(entry(ownSeal)), null);
        assertEquals(List.of(), none);
    }

    static byte[] entry(Statement s) {
        return CanonicalStatement.encode(s);
    }
}
