package org.electorallog.verifier;

import java.util.List;

/**
 * What {@link BoardVerifier} found: the checkpoint's size and root, leaves and entries checked, sender
 * signatures verified and entries without one (-1 each when no signature bundle was read), the
 * size the board is sealed at (-1: open or not known), the size the witness quorum vouches for (on
 * the checkpoint itself, or through the heads board's link; -1 when no quorum was asked for or it
 * failed), the board it continues (or null), and the problems found.
 */
public record Verification(
        long size,
        String root,
        long leaves,
        long entries,
        long signed,
        long unsigned,
        long sealedSize,
        long witnessedSize,
        String continues,
        List<String> problems,
        double seconds) {
    public boolean verified() {
        return problems.isEmpty();
    }
}
