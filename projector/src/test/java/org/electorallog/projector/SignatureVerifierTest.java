package org.electorallog.projector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.electorallog.core.SigningKey;
import org.electorallog.schemas.StatementCodec;
import org.junit.jupiter.api.Test;

/**
 * A batch's signatures verified in slices on several threads get the verdicts of one-by-one
 * verification, for every batch length around the slice edges (no event left unchecked or checked
 * twice), in batch order.
 */
class SignatureVerifierTest {
    private static final SigningKey SENDER = SigningKey.generate();
    private static final SigningKey STRANGER = SigningKey.generate();
    private static final StatementCodec CODEC = StatementCodec.embedded();
    private static final LogStatementCheck LOG = new LogStatementCheck(
            java.util.List.of(org.electorallog.core.SigningKey.generate().publicKey()));
    private static final SignaturePolicy POLICY =
            new SignaturePolicy(SignaturePolicy.Mode.SENDER, Pattern.compile("signed-.*"), List.of());

    @Test
    void parallelVerdictsEqualOneByOne() throws Exception {
        List<PendingEvent> all = new ArrayList<>();
        TreeMap<Long, String> expected = new TreeMap<>();
        for (int i = 0; i < 1001; i++) {
            boolean unsigned = i % 89 == 7;
            boolean wrong = i % 53 == 11;
            // two senders in every slice, each slice decoding each key once: a verdict must use the
            // statement's own key, never the other sender's
            SigningKey sender = i % 7 == 2 ? STRANGER : SENDER;
            SigningKey other = sender == SENDER ? STRANGER : SENDER;
            SigningKey signer = unsigned ? null : wrong ? other : sender;
            // every 10th statement is on a board outside the policy: never refused
            String board = i % 10 == 3 ? "open-board" : "signed-board";
            all.add(event(i, SignaturePolicyTest.envelope(board, "d-" + i, sender, signer, null)));
            if (board.startsWith("signed-") && (unsigned || wrong)) {
                expected.put((long) i, unsigned ? "UNSIGNED" : "BAD_SIGNATURE");
            }
        }
        try (SignatureVerifier one = new SignatureVerifier(POLICY, LOG, 1);
                SignatureVerifier three = new SignatureVerifier(POLICY, LOG, 3);
                SignatureVerifier eight = new SignatureVerifier(POLICY, LOG, 8)) {
            for (int n :
                    new int[] {0, 1, SignatureVerifier.SERIAL_BELOW - 1, SignatureVerifier.SERIAL_BELOW, 65, 500, 1001
                    }) {
                List<PendingEvent> batch = all.subList(0, n);
                Map<Long, String> want = new TreeMap<>(expected.headMap((long) n));
                assertEquals(want, verdicts(one, batch), "one thread, " + n + " events");
                assertEquals(want, verdicts(three, batch), "three threads, " + n + " events");
                assertEquals(want, verdicts(eight, batch), "eight threads, " + n + " events");
                assertEquals(
                        List.copyOf(want.keySet()),
                        three.refused(batch).stream()
                                .map(r -> r.event().offset())
                                .toList(),
                        "in batch order");
            }
        }
    }

    /**
     * A long batch is verified on the pool while the caller goes on (decision 77); asking for the
     * verdicts runs on the caller every slice the pool has not started, so they come even when the
     * pool was shut down with slices still queued.
     */
    @Test
    void aLongBatchIsVerifiedInTheBackgroundAndTheCallerFinishesWhatThePoolDropped() throws Exception {
        List<PendingEvent> batch = new ArrayList<>();
        List<Long> bad = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            boolean wrong = i % 50 == 9;
            batch.add(event(
                    i,
                    SignaturePolicyTest.envelope("signed-board", "d-" + i, SENDER, wrong ? STRANGER : SENDER, null)));
            if (wrong) {
                bad.add((long) i);
            }
        }
        SignatureVerifier v = new SignatureVerifier(POLICY, LOG, 2);
        SignatureVerifier.Verification serial = v.start(batch.subList(0, SignatureVerifier.SERIAL_BELOW - 1));
        assertTrue(serial.settled(), "a short batch is verified on the calling thread at once");
        assertEquals(
                List.of(9L, 59L),
                serial.refused().stream().map(r -> r.event().offset()).toList());
        SignatureVerifier.Verification running = v.start(batch);
        assertFalse(running.settled(), "a long batch is verified on the pool");
        v.close(); // queued slices are dropped by the pool
        assertEquals(
                bad, running.refused().stream().map(r -> r.event().offset()).toList());
        assertEquals(running.refused(), running.refused(), "the same verdicts when asked again");
    }

    @Test
    void policyNoneChecksNothing() throws Exception {
        try (SignatureVerifier v = new SignatureVerifier(SignaturePolicy.none(), LOG, 4)) {
            List<PendingEvent> batch = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                batch.add(event(i, SignaturePolicyTest.envelope("signed-board", "d-" + i, SENDER, null, null)));
            }
            assertEquals(List.of(), v.refused(batch));
        }
    }

    private static Map<Long, String> verdicts(SignatureVerifier v, List<PendingEvent> batch) {
        Map<Long, String> out = new TreeMap<>();
        for (BoardWriter.Refused r : v.refused(batch)) {
            out.put(r.event().offset(), r.reason().name());
        }
        return out;
    }

    private static PendingEvent event(long offset, org.electorallog.schemas.avro.Envelope e) throws Exception {
        byte[] value = CODEC.encode(e);
        return new PendingEvent(
                CODEC.decode(value), 0, offset, 0L, e.getStatement().getBoard(), value, null);
    }
}
