package org.electorallog.mirror;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.Cosigner;
import org.electorallog.core.Hashes;
import org.electorallog.core.Hex;
import org.electorallog.core.NoteVerifier;
import org.electorallog.core.ProofException;
import org.electorallog.core.SignedNote;
import org.electorallog.core.SubtreeProof;
import org.electorallog.core.TilePath;
import org.electorallog.core.WitnessRequest;
import org.electorallog.witness.FollowedLogs;
import org.electorallog.witness.SubtreeSigning;
import org.electorallog.witness.Witness;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A C2SP tlog-mirror's decisions: {@code add-checkpoint} updates the pending checkpoint as a
 * witness would (a {@link Witness} without keys: nothing signed then); {@code add-entries}
 * authenticates every package by its subtree consistency proof against the pending checkpoint at
 * {@code upload_end} before its entries are stored ({@link MirrorCopy}), then, once the copy holds
 * every entry up to {@code upload_end} durably, moves the <em>mirror checkpoint</em> there (never
 * back) and answers with the mirror's cosignatures on it: its statement that it holds the log up to
 * that size. The state directory holds {@code pending/} (the witness state of pending
 * checkpoints) and one directory per origin (named by the SHA-256 of the origin, as the monitoring
 * prefix names it) with the copy and its {@code checkpoint}; a missing or empty state is refused as
 * a witness's is, so a mirror that lost its state cannot cosign a rollback.
 */
public final class Mirror {
    private static final Logger LOG = LoggerFactory.getLogger(Mirror.class);
    /** Pending checkpoints kept as valid {@code upload_end} values, per origin. */
    static final int RECENT_PENDING = 16;
    /** The state's directory of pending checkpoints (a witness's state). */
    static final String PENDING = "pending";
    /** Entries a client may resend that the mirror already holds (tlog-mirror "excess_entries"). */
    static final long MAX_EXCESS = AddEntries.PACKAGES_PER_REQUEST * 256L;

    private final List<Cosigner.Key> keys;
    private final FollowedLogs logs;
    private final Witness pending;
    private final Path dir;
    private final Clock clock;
    private final Map<String, Origin> origins = new ConcurrentHashMap<>();

    /** One origin's copy and its recent pending checkpoints, under the origin's lock. */
    private static final class Origin {
        final MirrorCopy copy;
        final Map<Long, String> recent = new LinkedHashMap<>();

        Origin(MirrorCopy copy) {
            this.copy = copy;
        }
    }

    Mirror(List<Cosigner.Key> keys, FollowedLogs logs, Path dir, boolean initialise, double ratePerLog, int burst)
            throws IOException {
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("a mirror needs a key to cosign what it holds");
        }
        this.keys = List.copyOf(keys);
        this.logs = logs;
        this.dir = dir;
        this.clock = Clock.systemUTC();
        if (initialise) {
            Files.createDirectories(dir);
        } else if (!Files.isDirectory(dir.resolve(PENDING))) {
            throw new IOException("the mirror state directory " + dir + " holds no mirror state (no pending/); a "
                    + "mirror that lost its state would cosign a rollback. On the first start only: "
                    + "`electoral-log mirror init --state " + dir + "` (or --init)");
        }
        this.pending = Witness.pendingCheckpoints(logs, dir.resolve(PENDING), initialise, ratePerLog, burst);
    }

    /** {@code add-checkpoint}: the pending checkpoint, as a witness decides; 200 with an empty body. */
    public Witness.Answer addCheckpoint(String body) {
        Witness.Answer a = pending.addCheckpoint(body);
        if (a.status() == 200) {
            try {
                String origin = Checkpoint.parse(
                                SignedNote.parse(WitnessRequest.parse(body).checkpointNote())
                                        .text())
                        .origin();
                Optional<String> note = pending.stored(origin);
                if (note.isPresent()) {
                    Origin o = origin(origin);
                    synchronized (o) {
                        remember(o, note.get());
                    }
                }
            } catch (ProofException | IOException e) {
                LOG.warn("the pending checkpoint just stored could not be read back: {}", e.toString());
            }
        }
        return a;
    }

    private static void remember(Origin o, String note) throws ProofException {
        long size = Checkpoint.parse(SignedNote.parse(note).text()).size();
        o.recent.remove(size);
        o.recent.put(size, note);
        while (o.recent.size() > RECENT_PENDING) {
            o.recent.remove(o.recent.keySet().iterator().next());
        }
    }

    /**
     * {@code add-entries} on a request body: each package authenticated and stored in turn; 200 with
     * the mirror's cosignatures when the copy reaches {@code upload_end}, 202 with the next entry
     * when the body held a prefix, 409 with the mirror's sizes when the request does not fit its
     * state, 422 when a package does not prove against the checkpoint, 404 for a log it does not
     * mirror, 400 for a body that holds no whole package.
     */
    public Witness.Answer addEntries(InputStream body) {
        DataInputStream in = new DataInputStream(new BufferedInputStream(body, 64 * 1024));
        AddEntries.Header h;
        try {
            h = AddEntries.readHeader(in);
        } catch (IOException e) {
            return text(400, "malformed add-entries header: " + e.getMessage());
        }
        if (logs.keysFor(h.origin()).isEmpty()) {
            return text(404, "this mirror does not mirror the log '" + h.origin() + "'");
        }
        try {
            return addEntries(in, h);
        } catch (IOException e) {
            LOG.error("add-entries for '{}' failed on the mirror's storage", h.origin(), e);
            return text(500, "the mirror could not read or store its copy: " + e.getMessage());
        }
    }

    private Witness.Answer addEntries(DataInputStream in, AddEntries.Header h) throws IOException {
        if (h.uploadStart() < 0 || h.uploadEnd() < 0) {
            return text(
                    400,
                    "upload_start and upload_end are uint64 below 2^63, got " + h.uploadStart() + " and "
                            + h.uploadEnd());
        }
        // before any state is made for the origin: only a log whose key signed a pending checkpoint gets a copy
        if (pending.stored(h.origin()).isEmpty()) {
            return text(422, "this mirror has no pending checkpoint of '" + h.origin() + "': add-checkpoint first");
        }
        Origin o = origin(h.origin());
        Checkpoint target;
        long next;
        synchronized (o) {
            Optional<String> latest = pending.stored(h.origin());
            if (latest.isEmpty()) {
                return text(422, "this mirror has no pending checkpoint of '" + h.origin() + "': add-checkpoint first");
            }
            try {
                if (o.recent.isEmpty()) {
                    remember(o, latest.get());
                }
            } catch (ProofException e) {
                return text(500, "the mirror's pending checkpoint is damaged: " + e.getMessage());
            }
            long pendingSize = pendingSize(latest.get());
            next = o.copy.next();
            Optional<Checkpoint> mirrored = mirrorCheckpoint(h.origin());
            long mirrorSize = mirrored.map(Checkpoint::size).orElse(0L);
            String note = o.recent.get(h.uploadEnd());
            if (note == null && mirrored.isPresent() && mirrorSize == h.uploadEnd()) {
                note = mirrorNote(h.origin()).orElse(null);
            }
            AddEntries.Info info = new AddEntries.Info(note != null ? h.uploadEnd() : pendingSize, next);
            if (note == null || h.uploadEnd() < mirrorSize || h.uploadStart() > next) {
                return new Witness.Answer(409, AddEntries.INFO_TYPE, info.format());
            }
            if (h.uploadStart() > h.uploadEnd()) {
                return text(400, "upload_start " + h.uploadStart() + " is above upload_end " + h.uploadEnd());
            }
            if (Math.min(h.uploadEnd(), next) - h.uploadStart() > MAX_EXCESS) {
                return new Witness.Answer(409, AddEntries.INFO_TYPE, info.format());
            }
            try {
                target = Checkpoint.parse(SignedNote.parse(note).text());
            } catch (ProofException e) {
                return text(500, "the mirror's pending checkpoint is damaged: " + e.getMessage());
            }
        }
        List<long[]> canonical = AddEntries.canonical(h.uploadStart(), h.uploadEnd());
        int saved = 0;
        for (long[] p : canonical) {
            AddEntries.Package pkg;
            try {
                pkg = AddEntries.readPackage(in, p[0], p[1], p[2]);
            } catch (EOFException e) {
                break;
            } catch (IOException e) {
                if (saved == 0) {
                    return text(400, "malformed entry package: " + e.getMessage());
                }
                break;
            }
            synchronized (o) {
                if (pkg.start() > o.copy.next()) {
                    break; // another request holds fewer entries than this one thought: resend from next
                }
                byte[] leaves = new byte[(int) (pkg.end() - pkg.subtreeStart()) * Hashes.HASH_SIZE];
                byte[] before = o.copy.leafHashes(pkg.subtreeStart(), pkg.start());
                System.arraycopy(before, 0, leaves, 0, before.length);
                int at = before.length;
                for (byte[] e : pkg.entries()) {
                    System.arraycopy(Hashes.leafHash(e), 0, leaves, at, Hashes.HASH_SIZE);
                    at += Hashes.HASH_SIZE;
                }
                byte[] subtree = SubtreeProof.hash(leaves, 0, (int) (pkg.end() - pkg.subtreeStart()));
                try {
                    SubtreeProof.verify(
                            pkg.subtreeStart(), pkg.end(), target.size(), subtree, target.root(), pkg.proof());
                } catch (ProofException e) {
                    o.copy.sync();
                    LOG.warn(
                            "'{}': the package [{}, {}) does not prove against the checkpoint of size {}: {}",
                            h.origin(),
                            pkg.start(),
                            pkg.end(),
                            target.size(),
                            e.getMessage());
                    return text(
                            422,
                            "the package of entries [" + pkg.start() + ", " + pkg.end()
                                    + ") does not match the checkpoint of size " + target.size() + ": "
                                    + e.getMessage());
                }
                o.copy.append(pkg.start(), pkg.entries(), leaves, before.length / Hashes.HASH_SIZE);
                saved++;
            }
        }
        synchronized (o) {
            o.copy.sync();
            next = o.copy.next();
            if (next < h.uploadEnd()) {
                if (saved == 0 && !canonical.isEmpty()) {
                    return text(400, "the body holds no whole entry package");
                }
                int status = saved > 0 ? 202 : 409;
                return new Witness.Answer(
                        status, AddEntries.INFO_TYPE, new AddEntries.Info(h.uploadEnd(), next).format());
            }
            return commit(o, h.origin(), target);
        }
    }

    /**
     * Moves the mirror checkpoint to {@code target} unless it is already past it (tlog-mirror: "MUST
     * NOT rewind"), and answers with the mirror's cosignatures; a replay of the mirror checkpoint
     * is cosigned again without rewriting it.
     */
    private Witness.Answer commit(Origin o, String origin, Checkpoint target) throws IOException {
        Optional<Checkpoint> mirrored = mirrorCheckpoint(origin);
        long mirrorSize = mirrored.map(Checkpoint::size).orElse(0L);
        if (mirrored.isPresent() && target.size() < mirrorSize) {
            return new Witness.Answer(
                    409, AddEntries.INFO_TYPE, new AddEntries.Info(mirrorSize, o.copy.next()).format());
        }
        String note = o.recent.get(target.size());
        if (note == null) {
            note = mirrorNote(origin).orElseThrow();
        }
        SignedNote signed;
        try {
            signed = SignedNote.parse(note);
        } catch (ProofException e) {
            return text(500, "the mirror's pending checkpoint is damaged: " + e.getMessage());
        }
        long now = clock.instant().getEpochSecond();
        List<SignedNote.Signature> cosignatures = new ArrayList<>();
        for (Cosigner.Key k : keys) {
            cosignatures.add(k.cosign(signed.text(), now));
        }
        if (mirrored.isEmpty() || target.size() > mirrorSize) {
            o.copy.ensureEdge(target.size());
            StringBuilder served = new StringBuilder(signed.text()).append('\n');
            List<NoteVerifier> logKeys = logs.keysFor(origin).orElse(List.of());
            for (SignedNote.Signature s : signed.signatures()) {
                if (logKeys.stream().anyMatch(k -> k.matches(s.name(), s.keyId()))) {
                    served.append(s.line());
                }
            }
            cosignatures.forEach(c -> served.append(c.line()));
            MirrorCopy.Durable.write(
                    originDir(origin).resolve("checkpoint"), served.toString().getBytes(StandardCharsets.UTF_8));
        }
        StringBuilder out = new StringBuilder();
        cosignatures.forEach(c -> out.append(c.line()));
        return new Witness.Answer(200, "text/plain; charset=utf-8", out.toString());
    }

    /**
     * {@code GET <monitoring prefix>/<origin hash>/checkpoint}: the mirror checkpoint with the log's
     * signatures and the mirror's cosignatures; 404 before the mirror holds any.
     */
    public Witness.Answer checkpoint(String originHash) {
        Path f = dir.resolve(originHash).resolve("checkpoint");
        try {
            if (!originHash.matches("[0-9a-f]{64}") || !Files.isRegularFile(f)) {
                return text(404, "this mirror holds no copy of the log with origin hash " + originHash);
            }
            return new Witness.Answer(200, "text/plain; charset=utf-8", Files.readString(f, StandardCharsets.UTF_8));
        } catch (IOException e) {
            return text(500, "the mirror could not read its checkpoint: " + e.getMessage());
        }
    }

    /**
     * A tlog-tiles file of the copy of the log with {@code originHash}, by its path ({@code
     * tile/...}); empty when the mirror does not hold it.
     */
    public Optional<Path> tile(String originHash, String path) {
        if (!originHash.matches("[0-9a-f]{64}")) {
            return Optional.empty();
        }
        try {
            TilePath.parse(path);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        Path f = dir.resolve(originHash).resolve(path);
        return Files.isRegularFile(f) ? Optional.of(f) : Optional.empty();
    }

    /**
     * {@code sign-subtree} (C2SP tlog-mirror: handled as a witness handles it, at the same rate per
     * log) with the mirror's own keys: only a checkpoint the mirror cosigned is exchanged for a
     * subtree cosignature.
     */
    public Witness.Answer signSubtree(String body) {
        return pending.signSubtree(body, keys);
    }

    /** Whether it serves {@code sign-subtree}: with an ML-DSA-44 key. */
    public boolean signsSubtrees() {
        return SubtreeSigning.canSign(keys);
    }

    /** The mirror's cosigner keys, Ed25519 first. */
    public List<String> verifierKeys() {
        return keys.stream().map(Cosigner.Key::verifierKey).toList();
    }

    public FollowedLogs logs() {
        return logs;
    }

    private Origin origin(String origin) throws IOException {
        String hash = hash(origin);
        Origin o = origins.get(hash);
        if (o != null) {
            return o;
        }
        synchronized (origins) {
            o = origins.get(hash);
            if (o == null) {
                o = new Origin(MirrorCopy.open(originDir(origin)));
                origins.put(hash, o);
            }
            return o;
        }
    }

    private Path originDir(String origin) {
        return dir.resolve(hash(origin));
    }

    private static String hash(String origin) {
        return Hex.encode(Hashes.sha256(origin.getBytes(StandardCharsets.UTF_8)));
    }

    private Optional<String> mirrorNote(String origin) throws IOException {
        Path f = originDir(origin).resolve("checkpoint");
        return Files.isRegularFile(f) ? Optional.of(Files.readString(f, StandardCharsets.UTF_8)) : Optional.empty();
    }

    private Optional<Checkpoint> mirrorCheckpoint(String origin) throws IOException {
        Optional<String> note = mirrorNote(origin);
        if (note.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Checkpoint.parse(SignedNote.parse(note.get()).text()));
        } catch (ProofException e) {
            throw new IOException("the mirror checkpoint of '" + origin + "' is damaged: " + e.getMessage(), e);
        }
    }

    private static long pendingSize(String note) throws IOException {
        try {
            return Checkpoint.parse(SignedNote.parse(note).text()).size();
        } catch (ProofException e) {
            throw new IOException("the mirror's pending checkpoint is damaged: " + e.getMessage(), e);
        }
    }

    private static Witness.Answer text(int status, String message) {
        return new Witness.Answer(status, "text/plain; charset=utf-8", message + "\n");
    }
}
