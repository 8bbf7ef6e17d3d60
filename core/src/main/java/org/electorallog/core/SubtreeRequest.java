package org.electorallog.core;

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
        StringBuilder head = new StringBuilder("subtree ")
                .append(start)
                .append(' ')
                .append(end)
                .append('\n')
                .append(Base64.getEncoder().encodeToString(hash))
                .append('\n');
        return RequestLines.finish(head, proof, checkpointNote);
    }

    /** Parses a body strictly (a ProofException says what is wrong: the witness's 400). */
    public static SubtreeRequest parse(String body) throws ProofException {
        RequestLines.Split split = RequestLines.split(body);
        List<String> lines = split.head();
        String[] range = lines.get(0).split(" ", -1);
        if (range.length != 3 || !range[0].equals("subtree")) {
            throw new ProofException("the request must start with 'subtree <start> <end>'");
        }
        long start = decimal(range[1], "start");
        long end = decimal(range[2], "end");
        if (lines.size() < 2) {
            throw new ProofException("the request has no subtree hash line");
        }
        byte[] hash = RequestLines.hash(lines.get(1), "the subtree hash line");
        return new SubtreeRequest(start, end, hash, RequestLines.hashes(lines, 2), split.note());
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
}
