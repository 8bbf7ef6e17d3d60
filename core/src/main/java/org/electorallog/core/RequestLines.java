package org.electorallog.core;

import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * The shape both C2SP tlog-witness request bodies share ({@code add-checkpoint}, {@code
 * sign-subtree}): header lines, base64 hash lines (at most 63), an empty line, then the checkpoint.
 */
final class RequestLines {
    private RequestLines() {}

    /** The lines before the empty line, and the checkpoint note after it. */
    record Split(List<String> head, String note) {}

    /** Splits a body at its first empty line; '\n' line endings only. */
    static Split split(String body) throws ProofException {
        if (body.indexOf('\r') >= 0) {
            throw new ProofException("the request must use '\\n' line endings");
        }
        int blank = body.indexOf("\n\n");
        if (blank < 0) {
            throw new ProofException("the request has no empty line before the checkpoint");
        }
        return new Split(List.of(body.substring(0, blank).split("\n", -1)), body.substring(blank + 2));
    }

    /** The hash lines {@code lines[from..]}: at most 63, each a base64 32-byte hash. */
    static List<byte[]> hashes(List<String> lines, int from) throws ProofException {
        if (lines.size() - from > WitnessRequest.MAX_PROOF_LINES) {
            throw new ProofException("the request has " + (lines.size() - from) + " consistency proof lines, at most "
                    + WitnessRequest.MAX_PROOF_LINES + " are allowed");
        }
        List<byte[]> proof = new ArrayList<>();
        for (int i = from; i < lines.size(); i++) {
            proof.add(hash(lines.get(i), "consistency proof line " + (i - from + 1)));
        }
        return proof;
    }

    /** One base64 32-byte hash line. */
    static byte[] hash(String line, String what) throws ProofException {
        byte[] h;
        try {
            h = Base64.getDecoder().decode(line);
        } catch (IllegalArgumentException e) {
            throw new ProofException(what + " is not base64");
        }
        if (h.length != Hashes.HASH_SIZE) {
            throw new ProofException(what + " is not a 32-byte hash");
        }
        return h;
    }

    /** Appends each hash as a base64 line, then the empty line and the note. */
    static String finish(StringBuilder head, List<byte[]> hashes, String note) {
        for (byte[] h : hashes) {
            head.append(Base64.getEncoder().encodeToString(h)).append('\n');
        }
        return head.append('\n').append(note).toString();
    }
}
