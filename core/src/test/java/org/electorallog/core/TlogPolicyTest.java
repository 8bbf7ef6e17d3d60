package org.electorallog.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** C2SP tlog-policy: the specification's example with two levels of groups, the older settings as a policy, and each rule of the format refused. */
class TlogPolicyTest {
    private final NoteSigner log = NoteSigner.generate("log.example");
    private final List<Cosigner.Verifier> x = keys("x", 3);
    private final List<Cosigner.Verifier> y = keys("y", 3);

    /** The example of tlog-policy "Example policy": 2 of the X witnesses and any of the Y witnesses. */
    private String example() {
        StringBuilder sb = new StringBuilder("log " + log.verifierKey() + "\n\n");
        for (int i = 0; i < 3; i++) {
            sb.append("witness X")
                    .append(i + 1)
                    .append(' ')
                    .append(x.get(i).verifierKey())
                    .append('\n');
        }
        sb.append("group X-witnesses 2 X1 X2 X3\n\n");
        for (int i = 0; i < 3; i++) {
            sb.append("  witness\tY")
                    .append(i + 1)
                    .append(' ')
                    .append(y.get(i).verifierKey())
                    .append(" https://y.example/\n");
        }
        return sb.append(
                        "group Y-witnesses any Y1 Y2 Y3\n\n# both organisations\ngroup X-and-Y all X-witnesses Y-witnesses\nquorum X-and-Y\n")
                .toString();
    }

    @Test
    void theSpecificationsExampleNeedsTwoXAndOneY() {
        TlogPolicy p = TlogPolicy.parse(example());
        assertEquals(1, p.logKeys().size());
        assertEquals(6, p.witnessKeys().size());
        assertTrue(p.met(List.of(x.get(0), x.get(2), y.get(1))));
        assertFalse(p.met(List.of(x.get(0), y.get(0), y.get(1), y.get(2))), "one X is not two");
        assertFalse(p.met(List.of(x.get(0), x.get(1), x.get(2))), "no Y");
        assertFalse(p.met(List.of()));
        assertFalse(p.met(keys("stranger", 3)), "witnesses the policy does not know count for nothing");
        assertEquals("the group X-and-Y (2 of X-witnesses (2 of X1, X2, X3), Y-witnesses (1 of Y1, Y2, Y3))", p.rule());
        assertEquals("https://y.example/", p.witnesses().get(3).url().toString());
    }

    @Test
    void theOlderSettingsAreAPolicyAndQuorumNoneAsksForNoWitness() {
        // the older settings: a key and a URL a witness (WitnessPolicy), then published with the log's key
        List<String> entries = new java.util.ArrayList<>();
        for (int i = 0; i < x.size(); i++) {
            entries.add(x.get(i).verifierKey() + " http://w" + i + ".example");
        }
        TlogPolicy two =
                WitnessPolicy.parse(entries, "2").rule().withLogs(List.of(NoteVerifier.parse(log.verifierKey())));
        assertEquals(
                List.of(log.verifierKey()),
                two.logKeys().stream().map(NoteVerifier::verifierKey).toList());
        assertTrue(two.met(List.of(x.get(1), x.get(2))));
        assertFalse(two.met(List.of(x.get(1))));
        assertEquals(two.text(), TlogPolicy.parse(two.text()).text(), "what it publishes parses to itself");
        TlogPolicy none = WitnessPolicy.NONE.rule().withLogs(List.of(NoteVerifier.parse(log.verifierKey())));
        assertTrue(none.met(List.of()));
        assertEquals("no witness (quorum none)", none.rule());
        TlogPolicy single = TlogPolicy.parse("witness only " + x.get(0).verifierKey() + "\nquorum only\n");
        assertTrue(single.met(List.of(x.get(0))));
        assertFalse(single.met(List.of(x.get(1))));
    }

    @Test
    void eachRuleOfTheFormatIsEnforcedWithItsLine() {
        String w1 = "witness a " + x.get(0).verifierKey() + "\n";
        String w2 = "witness b " + x.get(1).verifierKey() + "\n";
        refused("log " + log.verifierKey() + "\n", "no quorum line");
        refused(w1 + "quorum a\nquorum a\n", "line 3: a second quorum line");
        refused(w1 + "quorum b\n", "line 2: quorum 'b' is not defined on an earlier line");
        refused("quorum g\n" + w1 + "group g any a\n", "line 1: quorum 'g' is not defined");
        refused(w1 + "group g any a b\n" + w2 + "quorum g\n", "line 2: member 'b' is not defined on an earlier line");
        refused(w1 + w2 + "group g 1 a a\nquorum g\n", "line 3: member 'a' is listed twice");
        refused(w1 + w2 + "group g 3 a b\nquorum g\n", "line 3: the threshold 3 is above the group's 2 member(s)");
        refused(w1 + w2 + "group g 0 a b\nquorum g\n", "line 3: a group's threshold is all, any or a number");
        refused(w1 + "group g any none\nquorum g\n", "line 2: 'none' is not a group member");
        refused(w1 + "witness none " + x.get(1).verifierKey() + "\nquorum a\n", "line 2: 'none' is predefined");
        refused(w1 + "group a any a\nquorum a\n", "line 2: the name 'a' is defined twice");
        refused(w1 + "witness a2 " + x.get(0).verifierKey() + "\nquorum a\n", "line 2: a witness listed twice");
        refused(
                "log " + log.verifierKey() + "\nlog " + log.verifierKey() + "\nquorum none\n",
                "line 2: a log listed twice");
        refused(w1 + "quorum\ta\r\n", "line 2: a control character other than tab");
        refused(w1 + "mirror m x\nquorum a\n", "line 2: 'mirror' is not a policy line");
        refused("witness a " + x.get(0).verifierKey() + " not-a-url\nquorum a\n", "line 1: 'not-a-url' is not a URL");
        refused("log " + x.get(0).verifierKey() + "\nquorum none\n", "line 1:");
    }

    private static void refused(String text, String why) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TlogPolicy.parse(text), text);
        assertTrue(e.getMessage().contains(why), e.getMessage() + " / wanted: " + why);
    }

    private static List<Cosigner.Verifier> keys(String prefix, int n) {
        List<Cosigner.Verifier> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(Cosigner.Verifier.parse(
                    Cosigner.Key.generate(prefix + i + ".example").verifierKey()));
        }
        return out;
    }
}
