package org.electorallog.core;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * A C2SP tlog-checkpoint body: the origin line, the tree size in decimal, the base64 root hash, and
 * optional extension lines, each ending in a newline. It is the text of a signed note.
 */
@SuppressWarnings("ArrayRecordComponent") // equals and hashCode below compare the root by content
public record Checkpoint(String origin, long size, byte[] root, List<String> extensions) {
    public Checkpoint {
        if (origin == null || origin.isEmpty() || origin.contains("\n")) {
            throw new IllegalArgumentException("checkpoint origin must be one non-empty line");
        }
        if (size < 0) {
            throw new IllegalArgumentException("checkpoint size must not be negative");
        }
        Hashes.checkHash(root, "checkpoint root");
        extensions = List.copyOf(extensions);
        for (String e : extensions) {
            if (e.isEmpty() || e.contains("\n")) {
                throw new IllegalArgumentException("checkpoint extension lines must be non-empty single lines");
            }
        }
    }

    public Checkpoint(String origin, long size, byte[] root) {
        this(origin, size, root, List.of());
    }

    /** The note text: {@code origin\nsize\nbase64(root)\n[extension\n]*}. */
    public String body() {
        StringBuilder sb = new StringBuilder();
        sb.append(origin)
                .append('\n')
                .append(size)
                .append('\n')
                .append(Base64.getEncoder().encodeToString(root))
                .append('\n');
        for (String e : extensions) {
            sb.append(e).append('\n');
        }
        return sb.toString();
    }

    /** Signs this checkpoint, giving the full signed note. */
    public String sign(NoteSigner... signers) {
        return SignedNote.sign(body(), signers);
    }

    /**
     * Signs this checkpoint with the log's Ed25519 key and, when {@code postQuantum} and the signer
     * has one, its ML-DSA-44 key: a C2SP tlog-cosignature {@code subtree/v1} line by the log at
     * {@code timestampSeconds} (C2SP tlog-checkpoint "Signatures"; signed-note type 0x06). The
     * ML-DSA-44 line does not cover extension lines (tlog-checkpoint: they SHOULD then be empty).
     */
    public String sign(NoteSigner signer, boolean postQuantum, long timestampSeconds) {
        String note = sign(signer);
        if (!postQuantum || signer.postQuantum().isEmpty()) {
            return note;
        }
        return note
                + signer.postQuantum().get().cosign(body(), timestampSeconds).line();
    }

    /** Parses a checkpoint body strictly (C2SP tlog-checkpoint, "Note text"). */
    public static Checkpoint parse(String text) throws ProofException {
        if (!text.endsWith("\n")) {
            throw new ProofException("checkpoint must end with a newline");
        }
        String[] lines = text.substring(0, text.length() - 1).split("\n", -1);
        if (lines.length < 3) {
            throw new ProofException("checkpoint needs origin, size and root lines, got " + lines.length + " lines");
        }
        String origin = lines[0];
        if (origin.isEmpty()) {
            throw new ProofException("checkpoint origin line is empty");
        }
        if (!lines[1].matches("0|[1-9][0-9]{0,18}")) {
            throw new ProofException(
                    "checkpoint size '" + lines[1] + "' must be a decimal number without leading zeros");
        }
        long size;
        try {
            size = Long.parseLong(lines[1]);
        } catch (NumberFormatException e) {
            throw new ProofException("checkpoint size '" + lines[1] + "' is too large");
        }
        byte[] root;
        try {
            root = Base64.getDecoder().decode(lines[2]);
        } catch (IllegalArgumentException e) {
            throw new ProofException("checkpoint root is not base64: " + e.getMessage());
        }
        if (root.length != Hashes.HASH_SIZE) {
            throw new ProofException("checkpoint root must be 32 bytes, got " + root.length);
        }
        List<String> ext = new ArrayList<>();
        for (int i = 3; i < lines.length; i++) {
            if (lines[i].isEmpty()) {
                throw new ProofException("checkpoint has an empty extension line");
            }
            ext.add(lines[i]);
        }
        return new Checkpoint(origin, size, root, ext);
    }

    /** Opens a signed checkpoint note with the given verifiers and parses its body. */
    public static Checkpoint open(String note, Collection<NoteVerifier> verifiers) throws ProofException {
        return parse(SignedNote.open(note, verifiers).text());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Checkpoint c
                && c.origin.equals(origin)
                && c.size == size
                && Arrays.equals(c.root, root)
                && c.extensions.equals(extensions);
    }

    @Override
    public int hashCode() {
        return Objects.hash(origin, size, Arrays.hashCode(root), extensions);
    }
}
