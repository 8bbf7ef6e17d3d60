package org.electorallog.projector;

import java.util.Arrays;
import java.util.List;
import org.electorallog.core.Hex;
import org.electorallog.core.SigningKey;
import org.electorallog.schemas.BadEventException;
import org.electorallog.schemas.DecodedStatement;
import org.electorallog.statement.LogStatements;

/**
 * The projector's check of the statements the log makes about itself (statement {@link LogStatements},
 * issue 61 item 1, decision 130): a statement using a reserved board, kind or delivery-ID prefix is
 * taken only when it fits its shape and carries a sender signature that verifies with one of the
 * log's keys, whatever the signature policy and the sender registry say (the registry is never
 * asked about it, so no grant, wildcard or not, covers it). Otherwise it is dead-lettered {@code
 * RESERVED_NAME} (or {@code UNSIGNED} / {@code BAD_SIGNATURE}) and never takes the ID. The decision
 * depends on the statement and the configured keys only, so a replay makes it again.
 */
final class LogStatementCheck {
    private final List<byte[]> logKeys;

    /** {@code logKeys}: the log's Ed25519 public keys (its signing key's; at least one). */
    LogStatementCheck(List<byte[]> logKeys) {
        if (logKeys.isEmpty()) {
            throw new IllegalArgumentException("the log's own statements need at least one log key");
        }
        this.logKeys = logKeys.stream().map(byte[]::clone).toList();
    }

    /** The check with the log's signing key of {@code settings}. */
    static LogStatementCheck of(ProjectorSettings settings) {
        return new LogStatementCheck(List.of(settings.signer().publicKey()));
    }

    /**
     * Checks {@code st} when it uses a reserved name: returns true when it is one of the log's own
     * statements and passes (no other check applies to it), false when it uses no reserved name
     * (the signature policy and the registry decide), and throws when it uses one and does not pass.
     */
    boolean check(DecodedStatement st) throws BadEventException {
        if (!LogStatements.reserved(st.board(), st.kind(), st.deliveryId())) {
            return false;
        }
        String misfit = LogStatements.misfit(st.board(), st.kind(), st.deliveryId());
        if (misfit != null) {
            throw new BadEventException(BadEventException.Reason.RESERVED_NAME, misfit);
        }
        byte[] sender = st.senderPublicKey();
        if (sender == null || logKeys.stream().noneMatch(k -> Arrays.equals(k, sender))) {
            throw new BadEventException(
                    BadEventException.Reason.RESERVED_NAME,
                    "a " + st.kind() + " on board " + st.board() + " under '" + st.deliveryId()
                            + "' is one of the log's own statements, which only the log's key sends; its sender key "
                            + (sender == null ? "is missing" : Hex.encode(sender) + " is not the log's")
                            + " (no grant of the sender registry covers it; `electoral-log seal` and `erase` sign "
                            + "with the log's key)");
        }
        if (st.senderSignature() == null) {
            throw new BadEventException(
                    BadEventException.Reason.UNSIGNED,
                    "a " + st.kind() + " on board " + st.board()
                            + " names the log's key as its sender but is not signed");
        }
        if (!SigningKey.verify(sender, st.entry().canonical(), st.senderSignature())) {
            throw new BadEventException(
                    BadEventException.Reason.BAD_SIGNATURE,
                    "a " + st.kind() + " on board " + st.board() + " names the log's key as its sender and its "
                            + "signature does not verify with it");
        }
        return true;
    }
}
