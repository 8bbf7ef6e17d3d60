package org.electorallog.witness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.Cosigner;
import org.electorallog.core.Hashes;
import org.electorallog.core.Hex;
import org.electorallog.core.NoteVerifier;
import org.electorallog.core.ProofException;
import org.electorallog.core.ProofVerifier;
import org.electorallog.core.SignedNote;
import org.electorallog.core.WitnessRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The witness's decision on an {@code add-checkpoint} request, following C2SP tlog-witness
 * section "add-checkpoint" step by step: 400 for a malformed body or an old size above the
 * checkpoint's, 404 for an origin it does not follow, 403 when no trusted key signed the
 * checkpoint, 409 with its own size ({@code text/x.tlog.size}) when the old size is not the size it
 * last cosigned, 422 when a checkpoint of size 0 does not have the empty tree's root, when the
 * consistency proof fails, or when equal sizes have different roots (a split view; the text of
 * 2026-07, C2SP #280: 409 before it), and otherwise 200 with its cosignature ({@code cosignature/v1},
 * C2SP tlog-cosignature) after the checkpoint is stored with that cosignature and the log's
 * signatures it verified: what the monitoring {@link #latest} serves. The check of the old size
 * and the store happen under one lock per origin, so two concurrent requests cannot roll the state back (the race the spec describes). A replay of
 * the checkpoint it holds is cosigned again without rewriting its state, and a log past its rate
 * gets 429 with Retry-After (issue 41).
 */
public final class Witness {
    private static final Logger LOG = LoggerFactory.getLogger(Witness.class);
    /** tlog-witness 409 body's content type. */
    public static final String SIZE_TYPE = "text/x.tlog.size";

    /** The witness's keys: its Ed25519 (cosignature/v1) key, then its ML-DSA-44 (subtree/v1) key if it has one. */
    private final List<Cosigner.Key> keys;

    private final FollowedLogs logs;
    private final WitnessState state;
    private final Clock clock;
    private final SubmissionRate rate;
    private final ConcurrentHashMap<String, Object> locks = new ConcurrentHashMap<>();

    Witness(List<Cosigner.Key> keys, FollowedLogs logs, WitnessState state, Clock clock, SubmissionRate rate) {
        this(keys, logs, state, clock, rate, false);
    }

    private Witness(
            List<Cosigner.Key> keys,
            FollowedLogs logs,
            WitnessState state,
            Clock clock,
            SubmissionRate rate,
            boolean keyless) {
        if (keys.isEmpty() && !keyless) {
            throw new IllegalArgumentException("a witness needs a key");
        }
        this.keys = List.copyOf(keys);
        this.logs = logs;
        this.state = state;
        this.clock = clock;
        this.rate = rate;
    }

    /**
     * The {@code add-checkpoint} of a C2SP tlog-mirror: handled as a witness handles it, keeping the
     * latest checkpoint of each log in {@code stateDir} (the mirror's <em>pending checkpoint</em>, with
     * the log's signatures), but signing nothing: a 200 has an empty body ("The mirror cosigner MUST
     * NOT sign the checkpoint in this process"). {@code initialise} makes a missing state directory.
     */
    public static Witness pendingCheckpoints(
            FollowedLogs logs, Path stateDir, boolean initialise, double ratePerLog, int burst) throws IOException {
        WitnessState state = initialise ? WitnessState.initialise(stateDir) : WitnessState.open(stateDir);
        return new Witness(
                List.of(),
                logs,
                state,
                Clock.systemUTC(),
                new SubmissionRate(ratePerLog, burst, System::nanoTime),
                true);
    }

    /** The checkpoint note stored for {@code origin} (with the log's signatures it verified), if any. */
    public Optional<String> stored(String origin) throws IOException {
        return state.byOriginHash(Hex.encode(Hashes.sha256(origin.getBytes(StandardCharsets.UTF_8))));
    }

    /** An HTTP answer: status, content type, body, and the seconds of a Retry-After (0: none). */
    public record Answer(int status, String contentType, String body, long retryAfterSeconds) {
        public Answer(int status, String contentType, String body) {
            this(status, contentType, body, 0);
        }

        static Answer text(int status, String message) {
            return new Answer(status, "text/plain; charset=utf-8", message + "\n");
        }
    }

    /** Decides on one request body. */
    public Answer addCheckpoint(String body) {
        WitnessRequest request;
        SignedNote note;
        Checkpoint cp;
        try {
            request = WitnessRequest.parse(body);
            note = SignedNote.parse(request.checkpointNote());
            cp = Checkpoint.parse(note.text());
        } catch (ProofException e) {
            return Answer.text(400, "malformed add-checkpoint request: " + e.getMessage());
        }
        Optional<List<NoteVerifier>> keys = logs.keysFor(cp.origin());
        if (keys.isEmpty()) {
            return Answer.text(404, "this witness does not follow the log '" + cp.origin() + "'");
        }
        try {
            SignedNote.open(request.checkpointNote(), keys.get());
        } catch (ProofException e) {
            return Answer.text(
                    403,
                    "the checkpoint is not signed by a key this witness trusts for '" + cp.origin() + "': "
                            + e.getMessage());
        }
        // after the signature: only origins the log's key signed get a bucket, so a prefix that
        // follows every board cannot be made to hold one per made-up origin
        long wait = rate.secondsToWait(cp.origin());
        if (wait > 0) {
            return new Answer(
                    429,
                    "text/plain; charset=utf-8",
                    "too many add-checkpoint requests for '" + cp.origin() + "'; retry in " + wait + " s\n",
                    wait);
        }
        if (request.oldSize() > cp.size()) {
            return Answer.text(400, "the old size " + request.oldSize() + " is above the checkpoint size " + cp.size());
        }
        synchronized (locks.computeIfAbsent(cp.origin(), o -> new Object())) {
            try {
                return decide(request, note, cp);
            } catch (IOException e) {
                LOG.error("witness state for '{}' could not be read or written", cp.origin(), e);
                return Answer.text(500, "the witness could not read or store its state: " + e.getMessage());
            }
        }
    }

    private Answer decide(WitnessRequest request, SignedNote note, Checkpoint cp) throws IOException {
        Optional<Checkpoint> latest = state.latest(cp.origin());
        long latestSize = latest.map(Checkpoint::size).orElse(0L);
        if (request.oldSize() != latestSize) {
            return new Answer(409, SIZE_TYPE, latestSize + "\n");
        }
        if (cp.size() == 0 && !Arrays.equals(cp.root(), Hashes.emptyRoot())) {
            return Answer.text(422, "a checkpoint of size 0 must have the empty tree's root (RFC 6962 section 2.1)");
        }
        if (latest.isPresent() && request.oldSize() == cp.size()) {
            if (!Arrays.equals(latest.get().root(), cp.root())) {
                LOG.warn(
                        "'{}' presented another root at size {}, which this witness cosigned with a different root: "
                                + "possible split view; the note was:\n{}",
                        cp.origin(),
                        cp.size(),
                        request.checkpointNote());
                return Answer.text(422, "this witness cosigned another root at size " + cp.size() + ": a split view");
            }
            if (!request.proof().isEmpty()) {
                return Answer.text(422, "the consistency proof between equal sizes must be empty");
            }
            // the checkpoint it holds, again: cosigned again, nothing rewritten (no fsync per replay)
            return cosignature(note);
        } else if (request.oldSize() == 0) {
            if (!request.proof().isEmpty()) {
                return Answer.text(422, "the consistency proof from size 0 must be empty");
            }
        } else {
            try {
                ProofVerifier.verifyConsistency(
                        request.oldSize(), cp.size(), latest.get().root(), cp.root(), request.proof());
            } catch (ProofException e) {
                LOG.warn(
                        "'{}' sent a consistency proof from {} to {} that does not verify ({}); the note was:\n{}",
                        cp.origin(),
                        request.oldSize(),
                        cp.size(),
                        e.getMessage(),
                        request.checkpointNote());
                return Answer.text(422, "the consistency proof does not verify: " + e.getMessage());
            }
        }
        List<SignedNote.Signature> cosignatures = cosign(note);
        state.store(cp.origin(), served(note, logs.keysFor(cp.origin()).orElse(List.of()), cosignatures));
        return new Answer(200, "text/plain; charset=utf-8", lines(cosignatures));
    }

    private Answer cosignature(SignedNote note) {
        return new Answer(200, "text/plain; charset=utf-8", lines(cosign(note)));
    }

    /** One cosignature a key, all at the same time (C2SP tlog-witness: the 200 body is one or more signature lines). */
    private List<SignedNote.Signature> cosign(SignedNote note) {
        long now = clock.instant().getEpochSecond();
        return keys.stream().map(k -> k.cosign(note.text(), now)).toList();
    }

    private static String lines(List<SignedNote.Signature> cosignatures) {
        StringBuilder out = new StringBuilder();
        cosignatures.forEach(c -> out.append(c.line()));
        return out.toString();
    }

    /**
     * The checkpoint as the monitoring prefix serves it (C2SP tlog-witness "Monitor Retrieval
     * Mechanism"): its text, the log's signatures this witness verified (no unknown key's), and this
     * witness's cosignature.
     */
    private String served(SignedNote note, List<NoteVerifier> logKeys, List<SignedNote.Signature> fresh) {
        StringBuilder out = new StringBuilder(note.text()).append('\n');
        for (SignedNote.Signature s : note.signatures()) {
            if (logKeys.stream().anyMatch(k -> k.matches(s.name(), s.keyId())) || (fresh.isEmpty() && isOwn(s))) {
                out.append(s.line());
            }
        }
        out.append(lines(fresh));
        return out.toString();
    }

    private boolean isOwn(SignedNote.Signature s) {
        return keys.stream().anyMatch(k -> s.name().equals(k.name()) && Arrays.equals(s.keyId(), k.keyId()));
    }

    /** Whether the note carries a cosignature by each of this witness's keys. */
    private boolean cosignedByAll(SignedNote note) {
        return keys.stream()
                .allMatch(k -> note.signatures().stream()
                        .anyMatch(s -> s.name().equals(k.name()) && Arrays.equals(s.keyId(), k.keyId())));
    }

    /**
     * {@code GET <monitoring prefix>/<origin hash>/checkpoint}: the latest checkpoint cosigned for
     * the origin whose SHA-256 is {@code originHash} (lowercase hex), with the log's signatures and
     * this witness's cosignature; 404 when it never cosigned one. A checkpoint stored before this
     * witness kept its cosignature with it is cosigned now.
     */
    public Answer latest(String originHash) {
        Optional<String> stored;
        try {
            stored = state.byOriginHash(originHash);
        } catch (IOException e) {
            LOG.error("witness state for origin hash {} could not be read", originHash, e);
            return Answer.text(500, "the witness could not read its state: " + e.getMessage());
        }
        if (stored.isEmpty()) {
            return Answer.text(
                    404, "this witness has cosigned no checkpoint of the log with origin hash " + originHash);
        }
        try {
            SignedNote note = SignedNote.parse(stored.get());
            Checkpoint cp = Checkpoint.parse(note.text());
            List<NoteVerifier> keys = logs.keysFor(cp.origin()).orElse(List.of());
            return new Answer(
                    200,
                    "text/plain; charset=utf-8",
                    served(note, keys, cosignedByAll(note) ? List.of() : cosign(note)));
        } catch (ProofException e) {
            return Answer.text(500, "the witness's state for that origin is not a checkpoint: " + e.getMessage());
        }
    }

    /**
     * {@code sign-subtree} for this witness's keys ({@link SubtreeSigning}), held to the same rate
     * per log as {@code add-checkpoint}: each answer is an ML-DSA-44 signature, and the checkpoint it
     * needs is public.
     */
    public Answer signSubtree(String body) {
        return SubtreeSigning.answer(body, keys, logs, rate);
    }

    /**
     * {@code sign-subtree} for another cosigner's keys that shares this one's logs and rate: a
     * mirror's, whose pending checkpoints this keyless witness keeps (tlog-mirror: the mirror's keys
     * sign, checkpoints it cosigned are exchanged).
     */
    public Answer signSubtree(String body, List<Cosigner.Key> cosignerKeys) {
        return SubtreeSigning.answer(body, cosignerKeys, logs, rate);
    }

    /** Whether it serves {@code sign-subtree}: with an ML-DSA-44 key. */
    public boolean signsSubtrees() {
        return SubtreeSigning.canSign(keys);
    }

    /** The cosigner key of its first (Ed25519) key. */
    public String verifierKey() {
        return keys.get(0).verifierKey();
    }

    /** Every cosigner key, Ed25519 first. */
    public List<String> verifierKeys() {
        return keys.stream().map(Cosigner.Key::verifierKey).toList();
    }

    public FollowedLogs logs() {
        return logs;
    }
}
