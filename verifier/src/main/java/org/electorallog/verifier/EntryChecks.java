package org.electorallog.verifier;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.electorallog.core.Hex;
import org.electorallog.core.NoteVerifier;
import org.electorallog.core.SignatureBundle;
import org.electorallog.core.SigningKey;
import org.electorallog.statement.BoardRules;
import org.electorallog.statement.CanonicalStatementReader;
import org.electorallog.statement.LogStatements;

/**
 * What {@code verify-board} checks of each entry beyond its leaf hash (issue 42 item 3), reading
 * the canonical statement bytes with the statement module ({@link CanonicalStatementReader}): that it is a
 * canonical statement of this board; its sender signature with the sender key it names and its
 * system signature with the system keys given (the signature bundle beside the entry bundle, core
 * {@link SignatureBundle}); its sender's grant in a registry export at its Kafka time; that no
 * record follows a {@code BOARD_SEALED} one; that a {@code LOG_CONTINUATION} is the board's
 * first record ({@link BoardVerifier} checks the link it names); and that a statement the log makes
 * about itself (a seal, a heads entry, an erasure's account: statement {@link LogStatements}) fits its
 * shape and names the log's key as its sender.
 */
public final class EntryChecks {
    public static final String SEALED = "BOARD_SEALED";
    public static final String CONTINUATION = "LOG_CONTINUATION";

    /** A board's first record: the sealed board it continues, at that board's size and root. */
    @SuppressWarnings("ArrayRecordComponent") // compared by its parts
    public record Continuation(String previousBoard, long previousSize, byte[] previousRoot) {}

    private final List<byte[]> systemKeys;
    private final List<byte[]> logKeys;
    private final RegistryExport registry;
    private final Consumer<Problem> problems;
    private final boolean requireSender;
    private final boolean requireSystem;
    private final Map<ByteBuffer, SigningKey.PublicKey> keys = new HashMap<>();
    private String board;
    /** Entries whose sender signature verified, and entries that carried none. */
    long signed;

    long unsigned;
    /** Entry bundles whose signature bundle could not be read (an anonymous caller, a copy without them). */
    long bundlesWithoutSignatures;
    /** The board rules (statement {@link BoardRules}) over the entries read, from the first one read; null before. */
    private BoardRules rules;

    Continuation continuation;

    /** Where each entry's time and kind are counted for a report, or null. */
    private BoardObservations observations;

    /**
     * @param board      the board the entries must be of, or null: the first entry's
     * @param systemKeys the voting system's keys; empty: system signatures are not checked
     * @param registry   the sender registry export, or null: grants are not checked
     * @param logKeys    the log's Ed25519 public keys: the only senders of the statements it makes about
     *                   itself (statement {@link LogStatements}); empty: their senders are not checked
     */
    public EntryChecks(
            String board,
            List<byte[]> systemKeys,
            RegistryExport registry,
            List<NoteVerifier> logKeys,
            Consumer<Problem> problems) {
        this(board, systemKeys, registry, logKeys, false, false, problems);
    }

    /**
     * As {@link #EntryChecks(String, List, RegistryExport, List, Consumer)}, where an entry without
     * a sender signature is a problem ({@link Problem.Kind#UNSIGNED}) when {@code requireSender}, and
     * one without a system signature when {@code requireSystem} (the audit's signature policy);
     * otherwise an entry without one is only counted.
     */
    public EntryChecks(
            String board,
            List<byte[]> systemKeys,
            RegistryExport registry,
            List<NoteVerifier> logKeys,
            boolean requireSender,
            boolean requireSystem,
            Consumer<Problem> problems) {
        this.requireSender = requireSender;
        this.requireSystem = requireSystem;
        this.board = board;
        this.systemKeys = List.copyOf(systemKeys);
        // the Ed25519 keys sign the log's own statements; an ML-DSA-44 key signs checkpoints only (decision 146)
        this.logKeys = logKeys.stream()
                .filter(k -> !k.postQuantum())
                .map(NoteVerifier::publicKey)
                .toList();
        this.registry = registry;
        this.problems = problems;
    }

    /** Counts each entry checked from now on into {@code o} (its statement time and kind). */
    void observe(BoardObservations o) {
        this.observations = o;
    }

    /** The board the entries are of (the first entry's when none was given). */
    public String board() {
        return board;
    }

    /** Checks the entries of one bundle from index {@code first}; {@code signatures} null when unread. */
    public void bundle(long first, List<byte[]> entries, List<SignatureBundle.Signatures> signatures) {
        bundle(first, entries, signatures, null);
    }

    /**
     * As {@link #bundle(long, List, List)}, with each sender signature's verification done already
     * ({@link #senderSignatures}, on another thread), or null to verify them here.
     */
    public void bundle(
            long first, List<byte[]> entries, List<SignatureBundle.Signatures> signatures, boolean[] verified) {
        if (signatures == null) {
            bundlesWithoutSignatures++;
        }
        for (int i = 0; i < entries.size(); i++) {
            entry(first + i, entries.get(i), signatures == null ? null : signatures.get(i), verified, i);
        }
    }

    /**
     * Whether each entry's sender signature verifies with the sender key the entry names (false
     * for an entry without one, or that is no statement): the costly part of the checks, done where
     * the bundles are fetched so that it runs on several threads (Ed25519, RFC 8032 section 5.1.7).
     */
    public static boolean[] senderSignatures(List<byte[]> entries, List<SignatureBundle.Signatures> signatures) {
        boolean[] out = new boolean[entries.size()];
        for (int i = 0; i < out.length; i++) {
            byte[] sig = signatures.get(i).sender();
            if (sig != null) {
                try {
                    Object key = CanonicalStatementReader.fields(entries.get(i)).get("sender_public_key");
                    out[i] = key instanceof byte[] k && SigningKey.verify(k, entries.get(i), sig);
                } catch (IllegalArgumentException e) {
                    out[i] = false; // not a statement: reported by the entry's own check
                }
            }
        }
        return out;
    }

    /** Entries whose sender signature verified. */
    public long signed() {
        return signed;
    }

    /** Entries that carried no sender signature. */
    public long unsigned() {
        return unsigned;
    }

    /** Entry bundles whose signature bundle could not be read. */
    public long bundlesWithoutSignatures() {
        return bundlesWithoutSignatures;
    }

    /** The index of the BOARD_SEALED record, or -1. */
    public long sealIndex() {
        return rules == null ? -1 : rules.sealIndex();
    }

    /** The board's first record's continuation, or null. */
    public Continuation continuation() {
        return continuation;
    }

    private void entry(long index, byte[] entry, SignatureBundle.Signatures signatures, boolean[] verified, int i) {
        Map<String, Object> fields;
        try {
            fields = CanonicalStatementReader.fields(entry);
        } catch (IllegalArgumentException e) {
            problem(
                    Problem.Kind.NOT_A_STATEMENT,
                    index,
                    "entry " + index + " is not a canonical statement: " + e.getMessage());
            return;
        }
        entry(index, entry, fields, signatures, verified == null ? null : verified[i]);
    }

    /**
     * Checks entry {@code index} whose canonical statement the caller has read already
     * ({@code fields}: statement {@link CanonicalStatementReader#fields}), with its signatures (null:
     * not read) and whether its sender signature verified (null: verify it here). Entries are given
     * in index order; after a gap the board rules go on from the entry given.
     */
    public void entry(
            long index,
            byte[] entry,
            Map<String, Object> fields,
            SignatureBundle.Signatures signatures,
            Boolean senderVerified) {
        String of = String.valueOf(fields.get("board"));
        String kind = String.valueOf(fields.get("kind"));
        if (observations != null && fields.get("statement_timestamp") instanceof Long at) {
            observations.entry(at, kind);
        }
        if (board == null) {
            board = of;
        } else if (!board.equals(of)) {
            problem(
                    Problem.Kind.OTHER_BOARD,
                    index,
                    "entry " + index + " is a statement of board '" + of + "', not of '" + board + "'");
        }
        if (rules == null || rules.size() != index) {
            // the first entry read, or one after a bundle that could not be read: the rules go on from here
            long seal = rules == null ? -1 : rules.sealIndex();
            rules = BoardRules.at(index, seal < index ? seal : -1);
        }
        BoardRules.Breach breach = rules.next(kind);
        if (breach != null) {
            problem(
                    breach == BoardRules.Breach.CONTINUATION_NOT_FIRST
                            ? Problem.Kind.CONTINUATION_NOT_FIRST
                            : Problem.Kind.AFTER_SEAL,
                    index,
                    rules.describe(breach, index));
        } else if (kind.equals(CONTINUATION)) {
            continuation(fields);
        }
        String id = String.valueOf(fields.get("delivery_id"));
        if (LogStatements.reserved(of, kind, id)) {
            logsOwn(index, of, kind, id, fields.get("sender_public_key") instanceof byte[] k ? k : null);
        }
        if (signatures != null) {
            signatures(index, entry, kind, fields, signatures, senderVerified);
        }
    }

    private void problem(Problem.Kind kind, long index, String message) {
        problems.accept(new Problem(kind, index, message));
    }

    /**
     * A statement under a name only the log writes (issue 61 item 1): it must fit its shape and name
     * the log's key as its sender, the only one a projector takes it from.
     */
    private void logsOwn(long index, String of, String kind, String id, byte[] sender) {
        String misfit = LogStatements.misfit(of, kind, id);
        if (misfit != null) {
            problem(
                    Problem.Kind.LOG_STATEMENT,
                    index,
                    "entry " + index + " uses a name only the log writes: " + misfit);
        } else if (!logKeys.isEmpty()
                && (sender == null || logKeys.stream().noneMatch(k -> Arrays.equals(k, sender)))) {
            problem(
                    Problem.Kind.LOG_STATEMENT,
                    index,
                    "entry " + index + " (" + kind + " under '" + id
                            + "') is one of the log's own statements "
                            + "but names sender key " + (sender == null ? "none" : Hex.encode(sender))
                            + ", not the log's: a projector takes it from no other key");
        }
    }

    /** The continuation record 0 names. */
    private void continuation(Map<String, Object> fields) {
        try {
            Map<String, Object> body = CanonicalStatementReader.record((byte[]) fields.get("body"));
            continuation =
                    new Continuation((String) body.get("previous_board"), (Long) body.get("previous_size"), (byte[])
                            body.get("previous_root"));
            if (continuation.previousBoard() == null
                    || continuation.previousRoot() == null
                    || continuation.previousRoot().length != 32) {
                throw new IllegalArgumentException("it lacks the previous board, size or a 32-byte root");
            }
        } catch (RuntimeException e) {
            continuation = null;
            problem(
                    Problem.Kind.NOT_A_STATEMENT,
                    0,
                    "entry 0 is a LOG_CONTINUATION whose body cannot be read: " + e.getMessage());
        }
    }

    private void signatures(
            long index,
            byte[] entry,
            String kind,
            Map<String, Object> fields,
            SignatureBundle.Signatures s,
            Boolean verified) {
        byte[] key = fields.get("sender_public_key") instanceof byte[] b ? b : null;
        if (s.sender() == null) {
            unsigned++;
            if (requireSender) {
                problem(
                        Problem.Kind.UNSIGNED,
                        index,
                        "entry " + index + " has no sender signature, and every " + "statement must carry one");
            }
        } else if (verified != null
                ? verified
                : key != null
                        && keys.computeIfAbsent(ByteBuffer.wrap(key), k -> SigningKey.PublicKey.decode(key))
                                .verify(entry, s.sender())) {
            signed++;
        } else {
            problem(
                    Problem.Kind.BAD_SIGNATURE,
                    index,
                    "entry " + index + "'s sender signature does not verify with the sender key it names");
        }
        if (s.system() == null && requireSystem) {
            problem(
                    Problem.Kind.UNSIGNED,
                    index,
                    "entry " + index + " has no system signature, and every "
                            + "statement must carry one by a system key given");
        } else if (s.system() != null && !systemKeys.isEmpty()) {
            boolean any = false;
            for (byte[] k : systemKeys) {
                any |= SigningKey.verify(k, entry, s.system());
            }
            if (!any) {
                problem(
                        Problem.Kind.BAD_SIGNATURE,
                        index,
                        "entry " + index + "'s system signature verifies with none of the system keys given");
            }
        }
        if (registry != null && !LogStatements.reserved(board, kind, String.valueOf(fields.get("delivery_id")))) {
            // the log's own statements are covered by no grant: their sender is checked above
            String refusal = s.sender() == null || key == null
                    ? "it has no sender signature"
                    : registry.refusal(key, board, kind, s.createdMillis());
            if (refusal != null) {
                problem(
                        Problem.Kind.NOT_GRANTED,
                        index,
                        "entry " + index + " (" + kind + ") is not allowed by the sender registry given: " + refusal);
            }
        }
    }
}
