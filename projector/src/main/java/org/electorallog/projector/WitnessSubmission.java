package org.electorallog.projector;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.Hashes;
import org.electorallog.core.Hex;
import org.electorallog.core.ProofBuilder;
import org.electorallog.core.ProofException;
import org.electorallog.core.SignedNote;
import org.electorallog.core.WitnessPolicy;
import org.electorallog.core.WitnessRequest;
import org.electorallog.store.CheckpointRow;
import org.electorallog.store.Projection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@code add-checkpoint} exchange with one witness (C2SP tlog-witness "HTTP Interface"): the
 * request with its consistency proof from the stored tiles (RFC 6962 section 2.1.2), the 409 that
 * says the witness's size, the 422 of a split view (409 at its own size from witnesses of the text
 * before 2026-07), and the cosignature checked ({@code cosignature/v1}) before it is
 * stored. {@link Witnessing} decides when and what to submit; this logs each witness's failures on
 * a board once, until the reason changes.
 */
final class WitnessSubmission {
    private static final Logger LOG = LoggerFactory.getLogger(WitnessSubmission.class);

    private final Projection db;
    private final HttpClient http;
    private final Duration timeout;
    /**
     * Per witness and board: the last failure logged, so a witness that stays down is logged once
     * per board, not every round, and one board's refusal does not make another's success noisy.
     */
    private final Map<String, String> failing = new ConcurrentHashMap<>();
    /** Per witness: when this process last stored a cosignature of it (epoch ms). */
    private final Map<String, Long> lastCosigned = new ConcurrentHashMap<>();

    /** Every configured witness key: a witness with two keys is two entries at one URL, answered in one request. */
    private final List<WitnessPolicy.Entry> entries;

    WitnessSubmission(Projection db, Duration timeout, List<WitnessPolicy.Entry> entries) {
        this.db = db;
        this.entries = List.copyOf(entries);
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
    }

    /**
     * Asks one witness to cosign {@code cp}, from {@code last}, the size it last cosigned as far as
     * we know; the size whose cosignature this call stored, or -1. On a
     * 409 it goes on once from the size the witness says: ours was lost (a restored database), or
     * the witness already cosigned past {@code cp}, and then the latest checkpoint is asked for.
     */
    long submit(short boardId, String board, CheckpointRow cp, WitnessPolicy.Entry w, long last)
            throws InterruptedException {
        long old = last;
        for (int attempt = 0; attempt < 2; attempt++) {
            HttpResponse<String> r;
            try {
                r = http.send(
                        HttpRequest.newBuilder(URI.create(w.url() + "/add-checkpoint"))
                                .timeout(timeout)
                                .POST(HttpRequest.BodyPublishers.ofString(request(boardId, cp, old)))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
            } catch (HttpTimeoutException e) {
                failed(w, board, "no answer within " + timeout.toMillis() + " ms (ELECTORAL_LOG_WITNESS_TIMEOUT_MS)");
                return -1;
            } catch (IOException e) {
                failed(w, board, "unreachable (" + e + ")");
                return -1;
            }
            if (r.statusCode() == 200 && r.body().isBlank()) {
                return fromMirror(boardId, board, cp, w) ? cp.size() : -1;
            }
            if (r.statusCode() == 200) {
                return store(boardId, board, cp, w, r.body()) ? cp.size() : -1;
            }
            if (r.statusCode() == 409 && attempt == 0) {
                long theirs = witnessSize(r.body());
                if (theirs < 0) {
                    failed(
                            w,
                            board,
                            "409 with a body that is not a size: " + r.body().strip());
                    return -1;
                }
                if (theirs > cp.size()) {
                    CheckpointRow asked = cp;
                    CheckpointRow latest = db.statement(
                            reader -> reader.latestCheckpoint(boardId).orElse(asked));
                    if (theirs > latest.size()) {
                        failed(
                                w,
                                board,
                                "it has cosigned size " + theirs + " of this board's origin, beyond our latest "
                                        + "checkpoint " + latest.size()
                                        + ": another log signed this origin, or this projection "
                                        + "was rebuilt from a shorter topic (docs/witnesses.md)");
                        return -1;
                    }
                    cp = latest; // it is past the checkpoint we asked for: ask for the latest instead
                } else if (theirs == old) {
                    failed(
                            w,
                            board,
                            "409 at its own size " + theirs + ": it holds another root at that size "
                                    + "(a split view, docs/witnesses.md)");
                    return -1;
                }
                old = theirs; // our record is behind the witness (for example a restored database): go on from its size
                continue;
            }
            if (r.statusCode() == 422) {
                // tlog-witness since 2026-07 (C2SP #280): the same size with another root is 422, as is a
                // consistency proof that does not verify from the size the witness holds; a witness
                // of the older text answers the first with 409 at its own size (above)
                failed(
                        w,
                        board,
                        (old == cp.size()
                                        ? "422 at its own size " + old + ": it holds another root at that size"
                                        : "422: our consistency proof from its size " + old + " to " + cp.size()
                                                + " does not verify against the root it holds")
                                + " (a split view, docs/witnesses.md): "
                                + r.body().strip());
                return -1;
            }
            failed(w, board, r.statusCode() + " " + r.body().strip());
            return -1;
        }
        return -1;
    }

    private String request(short boardId, CheckpointRow cp, long old) {
        // autocommitted: each tile read its own statement, as a proof's tiles are immutable once written
        return db.autocommit(c -> {
            List<byte[]> proof = old == 0 || old == cp.size()
                    ? List.of()
                    : ProofBuilder.consistency(old, cp.size(), c.reads().tileSource(boardId));
            return new WitnessRequest(old, proof, cp.note()).format();
        });
    }

    /**
     * A mirror (C2SP tlog-mirror) answers {@code add-checkpoint} with no cosignature: it cosigns a
     * checkpoint only once it holds every entry up to it ({@code electoral-log mirror push} feeds it).
     * Its cosignature is then read from its monitoring prefix ({@code GET <url>/<hex SHA-256 of the
     * origin>/checkpoint}) when the checkpoint it holds is {@code cp} itself; otherwise it is asked
     * again next round, so that a policy may require mirrors before a checkpoint, a seal, counts as
     * witnessed (decision 149).
     */
    private boolean fromMirror(short boardId, String board, CheckpointRow cp, WitnessPolicy.Entry w)
            throws InterruptedException {
        String why = "it answered add-checkpoint with no cosignature, as a mirror does, and does not hold size "
                + cp.size() + " yet (push the board to it: electoral-log mirror push)";
        Checkpoint ours;
        try {
            ours = Checkpoint.parse(SignedNote.parse(cp.note()).text());
        } catch (ProofException e) {
            throw new IllegalStateException("our own checkpoint does not parse", e);
        }
        String originHash = Hex.encode(Hashes.sha256(ours.origin().getBytes(StandardCharsets.UTF_8)));
        HttpResponse<String> r;
        try {
            r = http.send(
                    HttpRequest.newBuilder(URI.create(w.url() + "/" + originHash + "/checkpoint"))
                            .timeout(timeout)
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            failed(w, board, why + "; its monitoring checkpoint could not be read (" + e + ")");
            return false;
        }
        if (r.statusCode() != 200) {
            failed(w, board, why);
            return false;
        }
        try {
            SignedNote held = SignedNote.parse(r.body());
            Checkpoint theirs = Checkpoint.parse(held.text());
            if (theirs.size() != ours.size() || !Arrays.equals(theirs.root(), ours.root())) {
                failed(w, board, why);
                return false;
            }
            return store(boardId, board, cp, w, held);
        } catch (ProofException e) {
            failed(w, board, "its monitoring checkpoint is not a checkpoint note: " + e.getMessage());
            return false;
        }
    }

    private boolean store(short boardId, String board, CheckpointRow cp, WitnessPolicy.Entry w, String body) {
        SignedNote cosigned;
        try {
            cosigned = SignedNote.parse(cp.note() + body);
            Checkpoint.parse(cosigned.text());
        } catch (ProofException e) {
            failed(
                    w,
                    board,
                    "its answer holds no valid cosignature of checkpoint " + cp.size() + ": " + e.getMessage());
            return false;
        }
        return store(boardId, board, cp, w, cosigned);
    }

    /** Stores {@code w}'s cosignature in {@code cosigned} (a note of {@code cp}'s text), verified, and its siblings'. */
    private boolean store(short boardId, String board, CheckpointRow cp, WitnessPolicy.Entry w, SignedNote cosigned) {
        SignedNote.Signature line;
        try {
            line = w.verifier().cosignature(cosigned);
        } catch (ProofException e) {
            failed(
                    w,
                    board,
                    "its answer holds no valid cosignature of checkpoint " + cp.size() + ": " + e.getMessage());
            return false;
        }
        long timestamp = ByteBuffer.wrap(line.signature(), 0, 8).getLong();
        db.autocommit(c -> {
            c.addCosignature(boardId, cp.size(), w.id(), line.line(), timestamp);
            return null;
        });
        lastCosigned.put(w.id(), System.currentTimeMillis());
        if (failing.remove(w.id() + " " + board) != null) {
            LOG.info("witness {} cosigns again (board {}, size {})", w.id(), board, cp.size());
        }
        storeSiblings(boardId, cp, w, cosigned);
        return true;
    }

    /**
     * The answer's other lines: a witness with an Ed25519 and an ML-DSA-44 key cosigns with both in one
     * answer (C2SP tlog-witness: one or more signature lines), so the entries of its other keys (same
     * URL) are stored from it too, each verified, and need no request of their own this round.
     */
    private void storeSiblings(short boardId, CheckpointRow cp, WitnessPolicy.Entry w, SignedNote cosigned) {
        for (WitnessPolicy.Entry other : entries) {
            if (other.id().equals(w.id()) || !other.url().equals(w.url())) {
                continue;
            }
            SignedNote.Signature line;
            try {
                line = other.verifier().cosignature(cosigned);
            } catch (ProofException absentOrBad) {
                continue; // its own request says why, in its own round
            }
            long timestamp = ByteBuffer.wrap(line.signature(), 0, 8).getLong();
            db.autocommit(c -> {
                c.addCosignature(boardId, cp.size(), other.id(), line.line(), timestamp);
                return null;
            });
            lastCosigned.put(other.id(), System.currentTimeMillis());
        }
    }

    void failed(WitnessPolicy.Entry w, String board, String why) {
        String message = "witness " + w.id() + " at " + w.url() + " did not cosign board " + board + ": " + why;
        if (!message.equals(failing.put(w.id() + " " + board, message))) {
            LOG.warn("{} (projection goes on; retried every round; logged again when the reason changes)", message);
        }
    }

    /** When this process last stored a cosignature by {@code witnessId} (epoch ms), or {@code otherwise}. */
    long lastCosigned(String witnessId, long otherwise) {
        return lastCosigned.getOrDefault(witnessId, otherwise);
    }

    /** Why {@code witness} did not cosign {@code board} the last time it did not, until it cosigns again; or null. */
    String failure(String witnessId, String board) {
        return failing.get(witnessId + " " + board);
    }

    /** The size in a 409's {@code text/x.tlog.size} body, or -1. */
    static long witnessSize(String body) {
        String s = body.strip();
        return s.matches("0|[1-9][0-9]{0,18}") ? Long.parseLong(s) : -1;
    }
}
