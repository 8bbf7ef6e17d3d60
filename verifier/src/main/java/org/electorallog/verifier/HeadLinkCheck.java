package org.electorallog.verifier;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.function.Consumer;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.Cosigner;
import org.electorallog.core.NoteVerifier;
import org.electorallog.core.ProofException;
import org.electorallog.core.Quorum;
import org.electorallog.core.TlogProof;
import org.electorallog.statement.HeadChain;
import org.electorallog.statement.HeadsBoard;

/**
 * A board's link to the witnessed heads board (GET /boards/{board}/heads-link, docs/witnesses.md
 * "One witness round for every board"), checked as {@code verify-board} and the monitor see it:
 * the link's board checkpoint C is signed by the log, of the board's origin and not beyond the
 * latest checkpoint; the heads entry names C and is in a heads checkpoint the witness quorum
 * cosigned (statement {@link HeadChain#verifyLink}). C's root is then checked against the tree (an older
 * checkpoint the rebuild or a consistency proof must meet), so the witnesses vouch for the board up to
 * C's size.
 */
final class HeadLinkCheck {
    private static final ObjectMapper JSON = new ObjectMapper();

    private HeadLinkCheck() {}

    /** The link's board checkpoint when the whole link verifies; null after telling {@code problems} why not. */
    static Checkpoint check(
            byte[] link,
            Checkpoint latest,
            List<NoteVerifier> logKeys,
            List<Cosigner.Verifier> witnesses,
            Quorum quorum,
            Consumer<String> problems) {
        try {
            JsonNode j = JSON.readTree(link);
            Checkpoint c = Checkpoint.open(j.path("checkpoint").asText(), logKeys);
            if (!c.origin().equals(latest.origin())) {
                problems.accept(
                        "the heads link's checkpoint is of '" + c.origin() + "', not '" + latest.origin() + "'");
                return null;
            }
            if (c.size() > latest.size()) {
                problems.accept(
                        "the heads link's checkpoint has size " + c.size() + ", beyond the latest's " + latest.size());
                return null;
            }
            List<byte[]> hashes = new ArrayList<>();
            for (JsonNode h : j.path("hashes")) {
                hashes.add(Base64.getDecoder().decode(h.asText()));
            }
            TlogProof head = new TlogProof(
                    Base64.getDecoder().decode(j.path("entry").asText()),
                    j.path("entry_index").asLong(),
                    hashes,
                    j.path("heads_checkpoint").asText());
            HeadChain.verifyLink(c, head, HeadsBoard.originBeside(latest.origin()), logKeys, witnesses, quorum);
            return c;
        } catch (ProofException | IOException | IllegalArgumentException e) {
            problems.accept("the heads link does not verify: " + e.getMessage());
            return null;
        }
    }
}
