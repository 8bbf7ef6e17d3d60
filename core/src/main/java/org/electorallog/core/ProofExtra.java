package org.electorallog.core;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;

/**
 * What this log puts in a C2SP tlog-proof's {@code extra} data (decision 150): first, optionally,
 * the name of the policy the proof's checkpoint was witnessed under, one line {@code policy
 * sha256:<64 lowercase hex>} (the SHA-256 of the C2SP tlog-policy text the log publishes beside
 * the checkpoint, {@code GET /boards/{board}/policy}); then, optionally, the heads-chain link (a
 * tlog-proof of its own, docs/witnesses.md). Like all extra data it is not authenticated: a
 * verifier given a policy compares names and refuses a mismatch; one without reads which rule to
 * fetch.
 *
 * <pre>
 * extra = [ "policy sha256:" 64HEXDIG LF ] [ link ]
 * </pre>
 */
public final class ProofExtra {
    private ProofExtra() {}

    /** The policy line's start. */
    public static final String POLICY = "policy sha256:";

    /** A policy's name: the lowercase hex SHA-256 of its text, UTF-8. */
    public static String policyName(String policyText) {
        return Hex.encode(Hashes.sha256(policyText.getBytes(StandardCharsets.UTF_8)));
    }

    /** The extra bytes naming {@code policyName} (or not, when null) followed by {@code link} (or nothing); null when both are absent. */
    public static byte[] of(String policyName, byte[] link) {
        if (policyName == null) {
            return link;
        }
        if (!policyName.matches("[0-9a-f]{64}")) {
            throw new IllegalArgumentException("a policy name is 64 lowercase hex digits, got '" + policyName + "'");
        }
        byte[] line = (POLICY + policyName + "\n").getBytes(StandardCharsets.US_ASCII);
        if (link == null) {
            return line;
        }
        byte[] out = Arrays.copyOf(line, line.length + link.length);
        System.arraycopy(link, 0, out, line.length, link.length);
        return out;
    }

    /** The policy the extra bytes name, if they start with a policy line. */
    public static Optional<String> policy(byte[] extra) {
        int end = policyLineEnd(extra);
        return end < 0
                ? Optional.empty()
                : Optional.of(new String(extra, POLICY.length(), 64, StandardCharsets.US_ASCII));
    }

    /** The extra bytes after the policy line (all of them when there is none); null when nothing follows. */
    public static byte[] link(byte[] extra) {
        if (extra == null) {
            return null;
        }
        int end = policyLineEnd(extra);
        if (end < 0) {
            return extra;
        }
        return end == extra.length ? null : Arrays.copyOfRange(extra, end, extra.length);
    }

    /** The index after the policy line's newline, or -1 when the bytes do not start with one. */
    private static int policyLineEnd(byte[] extra) {
        int length = POLICY.length() + 64 + 1;
        if (extra == null || extra.length < length) {
            return -1;
        }
        String line = new String(extra, 0, length, StandardCharsets.US_ASCII);
        return line.startsWith(POLICY) && line.matches(POLICY + "[0-9a-f]{64}\n") ? length : -1;
    }
}
