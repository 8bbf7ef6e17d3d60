package org.electorallog.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
        assertEquals(2, p.quorum());
        assertEquals("remora.n621.de+da77ade7", p.witnesses().get(0).id());
        // the base64 of this key holds a '+': the ID still ends at the key ID
        assertEquals(
                "witness1.smartit.nu/witness1+a48c820f", p.witnesses().get(1).id());
        assertEquals("https://remora.n621.de", p.witnesses().get(0).url().toString());
        assertEquals(1, WitnessPolicy.parse(List.of(REMORA + " http://a"), null).quorum());
        assertTrue(WitnessPolicy.parse(List.of(), null).isEmpty());
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
