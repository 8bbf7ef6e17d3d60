package org.electorallog.core;

import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.List;

/**
 * C2SP tlog-proof v1: an offline-verifiable proof that an entry is in a log, made of the entry's
 * index, its inclusion proof and the signed checkpoint (with any witness cosignatures), plus
 * optional unauthenticated extra data.
 *
 * <pre>
 * c2sp.org/tlog-proof@v1
 * [extra &lt;base64&gt;]
 * index &lt;decimal&gt;
 * &lt;base64 hash&gt;*            (RFC 6962 audit path, leaf's sibling first)
 *
 * &lt;signed checkpoint note, verbatim&gt;
 * </pre>
 */
@SuppressWarnings("ArrayRecordComponent") // a parsed bundle, never compared as a value
public record TlogProof(byte[] extra, long index, List<byte[]> inclusion, String checkpointNote) {
    public static final String HEADER = "c2sp.org/tlog-proof@v1";

    public TlogProof {
        inclusion = List.copyOf(inclusion);
        if (index < 0) {
            throw new IllegalArgumentException("index must not be negative");
        }
    }

    /** The proof's text. */
    public String format() {
        StringBuilder sb = new StringBuilder(HEADER).append('\n');
        if (extra != null) {
            sb.append("extra ")
                    .append(Base64.getEncoder().encodeToString(extra))
                    .append('\n');
        }
        sb.append("index ").append(index).append('\n');
        for (byte[] h : inclusion) {
            sb.append(Base64.getEncoder().encodeToString(h)).append('\n');
        }
        sb.append('\n').append(checkpointNote);
        return sb.toString();
    }

    /** Parses a proof strictly. */
    public static TlogProof parse(String text) throws ProofException {
        if (text.indexOf('\r') >= 0) {
            throw new ProofException("tlog-proof must use '\\n' line endings");
        }
        int blank = text.indexOf("\n\n");
        if (blank < 0) {
            throw new ProofException("tlog-proof has no empty line before the checkpoint");
        }
        String[] lines = text.substring(0, blank).split("\n", -1);
        String note = text.substring(blank + 2);
        int i = 0;
        if (!lines[i++].equals(HEADER)) {
            throw new ProofException("tlog-proof must start with the line " + HEADER);
        }
        byte[] extra = null;
        if (i < lines.length && lines[i].startsWith("extra ")) {
            try {
                extra = Base64.getDecoder().decode(lines[i++].substring("extra ".length()));
            } catch (IllegalArgumentException e) {
                throw new ProofException("tlog-proof extra data is not base64");
            }
        }
        if (i >= lines.length || !lines[i].startsWith("index ")) {
            throw new ProofException("tlog-proof needs an 'index <n>' line");
        }
        String idx = lines[i++].substring("index ".length());
        if (!idx.matches("0|[1-9][0-9]{0,18}")) {
            throw new ProofException("tlog-proof index '" + idx + "' must be a decimal without leading zeros");
        }
        long index;
        try {
            index = Long.parseLong(idx);
        } catch (NumberFormatException e) {
            throw new ProofException("tlog-proof index is too large");
        }
        List<byte[]> hashes = new ArrayList<>();
        for (; i < lines.length; i++) {
            byte[] h;
            try {
                h = Base64.getDecoder().decode(lines[i]);
            } catch (IllegalArgumentException e) {
                throw new ProofException("tlog-proof hash line " + (hashes.size() + 1) + " is not base64");
            }
            if (h.length != Hashes.HASH_SIZE) {
                throw new ProofException("tlog-proof hash line " + (hashes.size() + 1) + " is not 32 bytes");
            }
            hashes.add(h);
            if (hashes.size() > 64) {
                throw new ProofException("tlog-proof has more than 64 proof hashes");
            }
        }
        return new TlogProof(extra, index, hashes, note);
    }

    /**
     * Verifies the proof for the entry with leaf hash {@code leafHash}: the checkpoint is signed by
     * a trusted log key and has the expected origin, each required witness cosigned it, and the
     * inclusion proof leads to its root. Returns the checkpoint.
     */
    public Checkpoint verify(
            byte[] leafHash,
            String origin,
            Collection<NoteVerifier> logKeys,
            Collection<Cosigner.Verifier> requiredWitnesses)
            throws ProofException {
        SignedNote note = SignedNote.open(checkpointNote, logKeys);
        Checkpoint cp = Checkpoint.parse(note.text());
        if (!cp.origin().equals(origin)) {
            throw new ProofException("checkpoint origin '" + cp.origin() + "' is not the expected '" + origin + "'");
        }
        for (Cosigner.Verifier w : requiredWitnesses) {
            w.verify(note);
        }
        ProofVerifier.verifyInclusion(index, cp.size(), leafHash, inclusion, cp.root());
        return cp;
    }

    /** What {@link #verify(byte[], String, Collection, Collection, int)} checked: the checkpoint and who cosigned it. */
    public record Verified(Checkpoint checkpoint, List<String> cosigners) {
        public Verified {
            cosigners = List.copyOf(cosigners);
        }
    }

    /**
     * Verifies the proof with a witness quorum (C2SP tlog-witness: a checkpoint is trusted when
     * enough independent witnesses cosigned it, tlog-cosignature {@code cosignature/v1}): the
     * checkpoint is signed by a trusted log key and has the expected origin, at least {@code quorum}
     * of {@code witnesses} cosigned it, and the inclusion proof (RFC 9162 section 2.1.3.2) leads
     * from {@code leafHash} at the proof's index to its root.
     */
    public Verified verify(
            byte[] leafHash,
            String origin,
            Collection<NoteVerifier> logKeys,
            Collection<Cosigner.Verifier> witnesses,
            int quorum)
            throws ProofException {
        if (quorum < 0 || quorum > witnesses.size()) {
            throw new IllegalArgumentException("the quorum must be between 0 and the " + witnesses.size()
                    + " witness key(s) given, not " + quorum);
        }
        return verify(leafHash, origin, logKeys, witnesses, Quorum.atLeast(quorum));
    }

    /**
     * As {@link #verify(byte[], String, Collection, Collection, int)} with any quorum rule, such as a
     * C2SP tlog-policy's groups ({@link TlogPolicy}): the witnesses whose cosignatures verify must
     * meet {@code quorum}.
     */
    public Verified verify(
            byte[] leafHash,
            String origin,
            Collection<NoteVerifier> logKeys,
            Collection<Cosigner.Verifier> witnesses,
            Quorum quorum)
            throws ProofException {
        SignedNote note = SignedNote.open(checkpointNote, logKeys);
        Checkpoint cp = Checkpoint.parse(note.text());
        if (!cp.origin().equals(origin)) {
            throw new ProofException("checkpoint origin '" + cp.origin() + "' is not the expected '" + origin + "'");
        }
        List<String> cosigners = new ArrayList<>();
        List<Cosigner.Verifier> valid = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (Cosigner.Verifier w : witnesses) {
            try {
                w.verify(note);
                cosigners.add(w.name());
                valid.add(w);
            } catch (ProofException e) {
                missing.add(w.name() + " (" + e.getMessage() + ")");
            }
        }
        if (!quorum.met(valid)) {
            throw new ProofException("the checkpoint has " + cosigners.size() + " valid cosignature(s), the quorum is "
                    + quorum.rule() + "; not cosigned by: " + String.join(", ", missing));
        }
        ProofVerifier.verifyInclusion(index, cp.size(), leafHash, inclusion, cp.root());
        return new Verified(cp, cosigners);
    }
}
