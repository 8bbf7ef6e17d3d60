package org.electorallog.core;

import java.util.ArrayList;
import java.util.Base64;
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
        StringBuilder sb = new StringBuilder("old ").append(oldSize).append('\n');
        for (byte[] h : proof) {
            sb.append(Base64.getEncoder().encodeToString(h)).append('\n');
        }
        return sb.append('\n').append(checkpointNote).toString();
    }

    /** Parses a request body strictly (a ProofException names what is wrong: the witness's 400). */
    public static WitnessRequest parse(String body) throws ProofException {
        if (body.indexOf('\r') >= 0) {
            throw new ProofException("the request must use '\\n' line endings");
        }
        int blank = body.indexOf("\n\n");
        if (blank < 0) {
            throw new ProofException("the request has no empty line before the checkpoint");
        }
        String[] lines = body.substring(0, blank).split("\n", -1);
        if (!lines[0].startsWith("old ")) {
            throw new ProofException("the request must start with 'old <size>'");
        }
        String old = lines[0].substring("old ".length());
        if (!old.matches("0|[1-9][0-9]{0,18}")) {
            throw new ProofException("the old size '" + old + "' must be a decimal without leading zeros");
        }
        long oldSize;
        try {
            oldSize = Long.parseLong(old);
        } catch (NumberFormatException e) {
            throw new ProofException("the old size is too large");
        }
        if (lines.length - 1 > MAX_PROOF_LINES) {
            throw new ProofException("the request has " + (lines.length - 1) + " consistency proof lines, at most "
                    + MAX_PROOF_LINES + " are allowed");
        }
        List<byte[]> proof = new ArrayList<>();
        for (int i = 1; i < lines.length; i++) {
            byte[] h;
            try {
                h = Base64.getDecoder().decode(lines[i]);
            } catch (IllegalArgumentException e) {
                throw new ProofException("consistency proof line " + i + " is not base64");
            }
            if (h.length != Hashes.HASH_SIZE) {
                throw new ProofException("consistency proof line " + i + " is not a 32-byte hash");
            }
            proof.add(h);
        }
        return new WitnessRequest(oldSize, proof, body.substring(blank + 2));
    }
}
