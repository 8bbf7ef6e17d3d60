package org.electorallog.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class WitnessPolicyTest {
    static final String REMORA = "remora.n621.de+da77ade7+BOvN63jn/bLvkieywe8R6UYAtVtNbZpXh34x7onlmtw2";
    static final String SMARTIT = "witness1.smartit.nu/witness1+a48c820f+BPSFWg9G6KPiO7QPryYO5Xq4oYJJ+kAvLKLSimDhoxMO";

    @Test
    void parsesWitnessesAndDefaultsTheQuorumToAMajority() {
        WitnessPolicy p = WitnessPolicy.parse(
                List.of(REMORA + " https://remora.n621.de/", SMARTIT + "  http://w1.example:8080"), null);
        assertEquals(2, p.flatQuorum());
        assertEquals("remora.n621.de+da77ade7", p.witnesses().get(0).id());
        // the base64 of this key holds a '+': the ID still ends at the key ID
        assertEquals(
                "witness1.smartit.nu/witness1+a48c820f", p.witnesses().get(1).id());
        assertEquals("https://remora.n621.de", p.witnesses().get(0).url().toString());
        assertEquals(1, WitnessPolicy.parse(List.of(REMORA + " http://a"), null).flatQuorum());
        assertTrue(WitnessPolicy.parse(List.of(), null).isEmpty());
    }

    /**
     * Issue 68: the keys listed with one URL are one witness, which counts once all of them cosigned
     * (an Ed25519 and an ML-DSA-44 key): a witness's two keys never make a quorum of two witnesses.
     */
    @Test
    void keysAtOneUrlAreOneWitnessThatCountsWhenAllOfThemCosigned() {
        Cosigner.Key aEd = Cosigner.Key.generate("a.example");
        Cosigner.Key aPq = Cosigner.Key.generateMlDsa44("a.example");
        Cosigner.Key bEd = Cosigner.Key.generate("b.example");
        WitnessPolicy p = WitnessPolicy.parse(
                List.of(
                        aEd.verifierKey() + " http://a.example",
                        aPq.verifierKey() + " http://a.example/",
                        bEd.verifierKey() + " http://b.example"),
                "2");
        assertEquals(3, p.witnesses().size(), "three keys asked");
        assertEquals(-1, p.flatQuorum(), "a group of keys: the page evaluates the policy");
        Cosigner.Verifier ae = Cosigner.Verifier.parse(aEd.verifierKey());
        Cosigner.Verifier ap = Cosigner.Verifier.parse(aPq.verifierKey());
        Cosigner.Verifier be = Cosigner.Verifier.parse(bEd.verifierKey());
        assertFalse(p.met(List.of(ae, ap)), "one witness's two keys are one witness");
        assertFalse(p.met(List.of(ae, be)), "a's ML-DSA-44 key is missing");
        assertTrue(p.met(List.of(ae, ap, be)));
        assertTrue(WitnessPolicy.parse(List.of(aEd.verifierKey() + " http://a", aPq.verifierKey() + " http://a"), null)
                .met(List.of(ae, ap)));
        assertThrows(
                IllegalArgumentException.class,
                () -> WitnessPolicy.parse(
                        List.of(aEd.verifierKey() + " http://a", aPq.verifierKey() + " http://a"), "2"),
                "one URL is one witness: a quorum of 2 cannot be met");
    }

    /** A policy file: its witnesses with a URL are asked, its nested quorum decides; the older settings then refused. */
    @Test
    void aPolicyFileWithNestedGroupsDecides() {
        Cosigner.Key x1 = Cosigner.Key.generate("x1.example");
        Cosigner.Key x2 = Cosigner.Key.generateMlDsa44("x2.example");
        Cosigner.Key y1 = Cosigner.Key.generate("y1.example");
        String text = "witness X1 " + x1.verifierKey() + " http://x1.example\n"
                + "witness X2 " + x2.verifierKey() + " http://x2.example\n"
                + "witness Y1 " + y1.verifierKey() + "\n"
                + "group X any X1 X2\n"
                + "group XY all X Y1\n"
                + "quorum XY\n";
        WitnessPolicy p = WitnessPolicy.of(text, List.of(), null);
        assertEquals(2, p.witnesses().size(), "only witnesses with a URL are asked");
        assertEquals(3, p.verifiers().size(), "every witness's cosignature counts");
        Cosigner.Verifier vx2 = Cosigner.Verifier.parse(x2.verifierKey());
        Cosigner.Verifier vy1 = Cosigner.Verifier.parse(y1.verifierKey());
        assertFalse(p.met(List.of(vx2)));
        assertTrue(p.met(List.of(vx2, vy1)));
        assertThrows(
                IllegalArgumentException.class,
                () -> WitnessPolicy.of(text, List.of(x1.verifierKey() + " http://x1.example"), null),
                "a policy file and the older list are not both taken");
    }

    @Test
    void refusesWhatCannotWork() {
        assertThrows(IllegalArgumentException.class, () -> WitnessPolicy.parse(List.of(REMORA), null));
        assertThrows(IllegalArgumentException.class, () -> WitnessPolicy.parse(List.of(REMORA + " ftp://x"), null));
        assertThrows(IllegalArgumentException.class, () -> WitnessPolicy.parse(List.of(REMORA + " http://a"), "2"));
        assertThrows(IllegalArgumentException.class, () -> WitnessPolicy.parse(List.of(REMORA + " http://a"), "0"));
        assertThrows(
                IllegalArgumentException.class,
                () -> WitnessPolicy.parse(List.of(REMORA + " http://a", REMORA + " http://b"), null));
    }
}
