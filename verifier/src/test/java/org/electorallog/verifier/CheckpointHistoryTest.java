package org.electorallog.verifier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.Cosigner;
import org.electorallog.core.NoteSigner;
import org.electorallog.core.SignedNote;
import org.junit.jupiter.api.Test;

/**
 * The checkpoint history a report reads (issue 69 item 4): evenly spread sizes, each checkpoint
 * once, the witnesses' verified cosignature times, and a cosignature on an older checkpoint that does
 * not verify reported. The history is served from a map here: a real API cannot be made to serve a
 * cosignature that fails without changing its database (the dev tests do that for the latest one).
 */
class CheckpointHistoryTest {
    static final NoteSigner LOG = NoteSigner.generate("history.log");
    static final Cosigner.Key WITNESS = Cosigner.Key.generate("history.witness");

    @Test
    void theSampledSizesSpreadEvenlyAndEndAtTheSize() {
        assertEquals(List.of(1L, 2L, 3L), BoardObservations.sampleSizes(3));
        List<Long> many = BoardObservations.sampleSizes(1_000_000);
        assertEquals(BoardObservations.HISTORY_SAMPLES, many.size());
        assertEquals(1L, many.get(0));
        assertEquals(1_000_000L, many.get(many.size() - 1));
        assertEquals(List.of(), BoardObservations.sampleSizes(0));
    }

    static String note(long size, long cosignedAt, boolean spoilCosignature) throws Exception {
        Checkpoint c = new Checkpoint("history.log/board", size, new byte[32]);
        SignedNote n = SignedNote.parse(c.sign(LOG));
        SignedNote.Signature cos = WITNESS.cosign(c.body(), cosignedAt);
        if (spoilCosignature) {
            byte[] sig = cos.signature().clone();
            sig[sig.length - 1] ^= 1;
            cos = new SignedNote.Signature(cos.name(), cos.keyId(), sig);
        }
        return n.withSignature(cos).serialize();
    }

    @Test
    void eachCheckpointIsReadOnceWithItsCosignatureTimesAndABadOneIsAProblem() throws Exception {
        TreeMap<Long, String> served = new TreeMap<>(Map.of(
                4L, note(4, 1_000, false),
                9L, note(9, 2_000, true), // its cosignature does not verify
                12L, note(12, 3_000, false)));
        List<Long> asked = new ArrayList<>();
        TlogFiles files = new TlogFiles() {
            @Override
            public byte[] get(String path) {
                return null;
            }

            @Override
            public byte[] checkpointFrom(long size) {
                asked.add(size);
                Map.Entry<Long, String> e = served.ceilingEntry(size);
                return e == null ? null : e.getValue().getBytes(StandardCharsets.UTF_8);
            }
        };
        BoardObservations seen = new BoardObservations();
        List<String> problems = new ArrayList<>();
        String latest = served.get(12L);
        List<String> older = CheckpointHistory.read(
                files,
                Checkpoint.open(latest, List.of(org.electorallog.core.NoteVerifier.parse(LOG.verifierKey()))),
                latest,
                List.of(Cosigner.Verifier.parse(WITNESS.verifierKey())),
                seen,
                problems::add);
        assertEquals(List.of(served.get(4L), served.get(9L)), older, "the older notes, each once");
        assertEquals(List.of(1L, 5L, 10L), asked, "no size asked again once a checkpoint past it was read");
        assertEquals(
                List.of(
                        new BoardObservations.HistoricCheckpoint(
                                4, List.of(new BoardObservations.Cosigned("history.witness", 1_000))),
                        new BoardObservations.HistoricCheckpoint(9, List.of()),
                        new BoardObservations.HistoricCheckpoint(
                                12, List.of(new BoardObservations.Cosigned("history.witness", 3_000)))),
                seen.history());
        assertEquals(1, problems.size(), problems.toString());
        assertTrue(
                problems.get(0)
                        .startsWith(
                                "witness history.witness's cosignature on the checkpoint at size 9 does not verify"),
                problems.get(0));
    }
}
