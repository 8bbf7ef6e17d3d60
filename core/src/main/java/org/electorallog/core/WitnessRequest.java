package org.electorallog.core;

import java.util.List;

/**
 * The body of a C2SP tlog-witness {@code add-checkpoint} request: an old size line
 * ({@code old <decimal>}), zero to 63 consistency proof lines (base64 hashes, RFC 6962 section
 * 2.1.2, from the old size to the checkpoint's), an empty line, then the signed checkpoint note.
 *
 * @param oldSize the size of the latest checkpoint the witness cosigned, as the client believes
 * @param proof the consistency proof from {@code oldSize} to the checkpoint's size (empty when 0)
 * @param checkpointNote the signed checkpoint (C2SP tlog-checkpoint), verbatim
 */
public record WitnessRequest(long oldSize, List<byte[]> proof, String checkpointNote) {
    /** tlog-witness: "The client MUST NOT send more than 63 consistency proof lines." */
    public static final int MAX_PROOF_LINES = 63;

    public WitnessRequest {
        proof = List.copyOf(proof);
        if (oldSize < 0) {
            throw new IllegalArgumentException("the old size must not be negative");
        }
        if (proof.size() > MAX_PROOF_LINES) {
            throw new IllegalArgumentException("at most " + MAX_PROOF_LINES + " consistency proof lines");
        }
    }

    /** The request body. */
    public String format() {
        return RequestLines.finish(new StringBuilder("old ").append(oldSize).append('\n'), proof, checkpointNote);
    }

    /** Parses a request body strictly (a ProofException names what is wrong: the witness's 400). */
    public static WitnessRequest parse(String body) throws ProofException {
        RequestLines.Split split = RequestLines.split(body);
        List<String> lines = split.head();
        if (!lines.get(0).startsWith("old ")) {
            throw new ProofException("the request must start with 'old <size>'");
        }
        String old = lines.get(0).substring("old ".length());
        if (!old.matches("0|[1-9][0-9]{0,18}")) {
            throw new ProofException("the old size '" + old + "' must be a decimal without leading zeros");
        }
        long oldSize;
        try {
            oldSize = Long.parseLong(old);
        } catch (NumberFormatException e) {
            throw new ProofException("the old size is too large");
        }
        return new WitnessRequest(oldSize, RequestLines.hashes(lines, 1), split.note());
    }
}
