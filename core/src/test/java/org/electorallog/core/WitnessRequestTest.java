package org.electorallog.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The tlog-witness add-checkpoint body, against the example request of C2SP tlog-witness. */
class WitnessRequestTest {
    static final String SPEC_EXAMPLE = """
            old 20852014
            PlRNCrwHpqhGrupue0L7gxbjbMiKA9temvuZZDDpkaw=
            jrJZDmY8Y7SyJE0MWLpLozkIVMSMZcD5kvuKxPC3swk=
            5+pKlUdi2LeF/BcMHBn+Ku6yhPGNCswZZD1X/6QgPd8=
            /6WVhPs2CwSsb5rYBH5cjHV/wSmA79abXAwhXw3Kj/0=

            example.com/behind-the-sofa
            20852163
            CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=

            — example.com/behind-the-sofa Az3grlgtzPICa5OS8npVmf1Myq/5IZniMp+ZJurmRDeOoRDe4URYN7u5/Zhcyv2q1gGzGku9nTo+zyWE+xeMcTOAYQ8=
            — example.com/behind-the-sofa opLqBQsREYCgu6xQkYQwJr9fo45a62DN9EdmHXnZdXNqlcVGlCum2Wks+49/V6267UEjw6QUXTS5Rovnzv++qbSzm9Q=
            """;

    @Test
    void theSpecExampleParsesAndFormatsBackToItself() throws Exception {
        WitnessRequest r = WitnessRequest.parse(SPEC_EXAMPLE);
        assertEquals(20852014L, r.oldSize());
        assertEquals(4, r.proof().size());
        assertEquals(
                "PlRNCrwHpqhGrupue0L7gxbjbMiKA9temvuZZDDpkaw=",
                Base64.getEncoder().encodeToString(r.proof().get(0)));
        assertEquals(
                20852163L,
                Checkpoint.parse(SignedNote.parse(r.checkpointNote()).text()).size());
        assertEquals(SPEC_EXAMPLE, r.format());
    }

    @Test
    void malformedBodiesAreRefusedWithTheReason() {
        refused(() -> WitnessRequest.parse("old 01\n\nx"), "leading zeros");
        refused(() -> WitnessRequest.parse("new 1\n\nx"), "old <size>");
        refused(() -> WitnessRequest.parse("old 1\nAAAA\n\nx"), "32-byte");
        refused(() -> WitnessRequest.parse("old 1\n"), "empty line");
        String many = "old 1\n" + "PlRNCrwHpqhGrupue0L7gxbjbMiKA9temvuZZDDpkaw=\n".repeat(64) + "\nx";
        refused(() -> WitnessRequest.parse(many), "at most 63");
        assertEquals("old 0\n\nn", new WitnessRequest(0, List.of(), "n").format());
    }

    static void refused(org.junit.jupiter.api.function.Executable call, String reason) {
        Throwable t = assertThrows(Exception.class, call);
        assertTrue(t.getMessage().contains(reason), () -> "expected '" + reason + "' in: " + t.getMessage());
    }
}
