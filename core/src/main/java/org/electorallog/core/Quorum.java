package org.electorallog.core;

import java.util.Collection;

/**
 * Which sets of witnesses' valid cosignatures make a checkpoint count as witnessed (C2SP
 * tlog-proof step 3: "Which subsets of witnesses are considered strong enough, is determined by
 * application policy"): k of the witnesses given ({@link #atLeast}), or a C2SP tlog-policy's groups
 * ({@link TlogPolicy}).
 */
public interface Quorum {
    /** Whether the witnesses whose cosignatures verified, {@code cosigned}, meet this rule. */
    boolean met(Collection<Cosigner.Verifier> cosigned);

    /** The rule in words, for a refusal: "2 of the witnesses", "the group X-and-Y". */
    String rule();

    /** Whether the rule asks for any cosignature at all (a quorum of 0, or {@code quorum none}, does not). */
    default boolean asksAny() {
        return !met(java.util.List.of());
    }

    /** At least {@code n} of whichever witnesses are given (the {@code --quorum N} of every command). */
    static Quorum atLeast(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("a quorum is not negative: " + n);
        }
        return new Quorum() {
            @Override
            public boolean met(Collection<Cosigner.Verifier> cosigned) {
                return cosigned.size() >= n;
            }

            @Override
            public String rule() {
                return n + " of the witnesses";
            }
        };
    }
}
