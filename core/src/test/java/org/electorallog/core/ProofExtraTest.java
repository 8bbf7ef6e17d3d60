package org.electorallog.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The extra data of this log's tlog-proof bundles (decision 150): a policy line, then the link. */
class ProofExtraTest {
    static final String POLICY = "log example.com/log+01234567+AQ\nquorum none\n";

    @Test
    void aBundleNamesItsPolicyBeforeItsLinkAndSurvivesTheTlogProofText() throws ProofException {
        String name = ProofExtra.policyName(POLICY);
        assertEquals(Hex.encode(Hashes.sha256(POLICY.getBytes(StandardCharsets.UTF_8))), name);
        byte[] link = (TlogProof.HEADER + "\nindex 0\n\nnote\n").getBytes(StandardCharsets.UTF_8);
        byte[] both = ProofExtra.of(name, link);
        TlogProof proof = TlogProof.parse(new TlogProof(both, 3, List.of(), "cp\n").format());
        assertEquals(Optional.of(name), ProofExtra.policy(proof.extra()));
        assertArrayEquals(link, ProofExtra.link(proof.extra()));
        // the policy alone, the link alone, neither
        byte[] alone = ProofExtra.of(name, null);
        assertEquals(Optional.of(name), ProofExtra.policy(alone));
        assertNull(ProofExtra.link(alone));
        assertArrayEquals(link, ProofExtra.of(null, link));
        assertEquals(Optional.empty(), ProofExtra.policy(link));
        assertArrayEquals(link, ProofExtra.link(link));
        assertNull(ProofExtra.of(null, null));
        assertEquals(Optional.empty(), ProofExtra.policy(null));
    }

    @Test
    void onlyAWholePolicyLineIsAName() {
        assertThrows(IllegalArgumentException.class, () -> ProofExtra.of("ABC", null));
        String upper = ProofExtra.policyName(POLICY).toUpperCase(java.util.Locale.ROOT);
        byte[] notAName = (ProofExtra.POLICY + upper + "\n").getBytes(StandardCharsets.US_ASCII);
        assertEquals(Optional.empty(), ProofExtra.policy(notAName));
        assertArrayEquals(notAName, ProofExtra.link(notAName));
        byte[] noNewline = (ProofExtra.POLICY + ProofExtra.policyName(POLICY)).getBytes(StandardCharsets.US_ASCII);
        assertEquals(Optional.empty(), ProofExtra.policy(noNewline));
    }
}
