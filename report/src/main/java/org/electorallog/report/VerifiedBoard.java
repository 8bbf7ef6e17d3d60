package org.electorallog.report;

import java.time.Instant;
import java.util.List;
import org.electorallog.verifier.BoardObservations;
import org.electorallog.verifier.Verification;

/**
 * What {@code verify-board} verified and how, the report's whole input.
 *
 * @param board        the board's name, or null where the source does not say (then the origin's)
 * @param source       where the board was read, as a person would say it ("the query API at ...")
 * @param logKeys      the log's verifier keys trusted (C2SP signed-note)
 * @param witnessKeys  the witnesses' cosignature/v1 verifier keys trusted
 * @param quorum       the witness rule, as {@code Quorum.rule()} states it
 * @param olderGiven   older checkpoints given by the caller (besides the history read)
 * @param registry     whether a sender registry export was checked against
 * @param systemKeys   how many voting system keys signatures were checked with
 * @param command      the command that repeats this verification (secrets left as variables)
 * @param verifiedAt   when the verification ran
 * @param result       what the verifier found
 * @param observations what it saw of the entries' times and kinds and of the checkpoint history
 */
public record VerifiedBoard(
        String board,
        String source,
        List<String> logKeys,
        List<String> witnessKeys,
        String quorum,
        int olderGiven,
        boolean registry,
        int systemKeys,
        String command,
        Instant verifiedAt,
        Verification result,
        BoardObservations observations) {
    public VerifiedBoard {
        logKeys = List.copyOf(logKeys);
        witnessKeys = List.copyOf(witnessKeys);
    }

    /** The board's name: the one given, else the last part of the checkpoints' origin. */
    public String name() {
        if (board != null) {
            return board;
        }
        String origin = observations.origin();
        return origin == null ? "(no checkpoint)" : origin.substring(origin.lastIndexOf('/') + 1);
    }
}
