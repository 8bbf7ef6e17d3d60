package org.electorallog.core;

import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * The body of a C2SP tlog-witness {@code sign-subtree} request: {@code subtree <start> <end>}, the
 * subtree's hash, up to 63 subtree consistency proof lines (draft-ietf-plants-merkle-tree-certs
 * section 4.4), an empty line, then the reference checkpoint the witness cosigned.
 */
public final class SubtreeRequest {
    private final long start;
    private final long end;
    private final byte[] hash;
    private final List<byte[]> proof;
    private final String checkpointNote;

    public SubtreeRequest(long start, long end, byte[] hash, List<byte[]> proof, String checkpointNote) {
        Hashes.checkHash(hash, "subtree hash");
        if (proof.size() > WitnessRequest.MAX_PROOF_LINES) {
            throw new IllegalArgumentException("at most " + WitnessRequest.MAX_PROOF_LINES + " proof lines");
        }
        this.start = start;
        this.end = end;
        this.hash = hash.clone();
        this.proof = List.copyOf(proof);
        this.checkpointNote = checkpointNote;
    }

    public long start() {
        return start;
    }

    public long end() {
        return end;
    }

    public byte[] hash() {
        return hash.clone();
    }

    public List<byte[]> proof() {
        return proof;
    }

    public String checkpointNote() {
        return checkpointNote;
    }

    /** The request body. */
    public String format() {
        StringBuilder sb = new StringBuilder("subtree ")
                .append(start)
                .append(' ')
                .append(end)
                .append('\n')
                .append(Base64.getEncoder().encodeToString(hash))
                .append('\n');
        for (byte[] h : proof) {
            sb.append(Base64.getEncoder().encodeToString(h)).append('\n');
        }
        return sb.append('\n').append(checkpointNote).toString();
    }

    /** Parses a body strictly (a ProofException says what is wrong: the witness's 400). */
    public static SubtreeRequest parse(String body) throws ProofException {
        if (body.indexOf('\r') >= 0) {
            throw new ProofException("the request must use '\\n' line endings");
        }
        int blank = body.indexOf("\n\n");
        if (blank < 0) {
            throw new ProofException("the request has no empty line before the checkpoint");
        }
        String[] lines = body.substring(0, blank).split("\n", -1);
        String[] range = lines[0].split(" ", -1);
        if (range.length != 3 || !range[0].equals("subtree")) {
            throw new ProofException("the request must start with 'subtree <start> <end>'");
        }
        long start = decimal(range[1], "start");
        long end = decimal(range[2], "end");
        if (lines.length < 2) {
            throw new ProofException("the request has no subtree hash line");
        }
        byte[] hash = hashLine(lines[1], "the subtree hash line");
        if (lines.length - 2 > WitnessRequest.MAX_PROOF_LINES) {
            throw new ProofException("the request has " + (lines.length - 2) + " consistency proof lines, at most "
                    + WitnessRequest.MAX_PROOF_LINES + " are allowed");
        }
        List<byte[]> proof = new ArrayList<>();
        for (int i = 2; i < lines.length; i++) {
            proof.add(hashLine(lines[i], "consistency proof line " + (i - 1)));
        }
        return new SubtreeRequest(start, end, hash, proof, body.substring(blank + 2));
    }

    private static long decimal(String s, String what) throws ProofException {
        if (!s.matches("0|[1-9][0-9]{0,18}")) {
            throw new ProofException("the subtree " + what + " '" + s + "' must be a decimal without leading zeros");
        }
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new ProofException("the subtree " + what + " is too large");
        }
    }

    private static byte[] hashLine(String line, String what) throws ProofException {
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
}
