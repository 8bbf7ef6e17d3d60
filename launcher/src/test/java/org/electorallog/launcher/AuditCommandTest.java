package org.electorallog.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.electorallog.audit.AuditOptions;
import org.electorallog.config.Configuration;
import org.electorallog.core.Cosigner;
import org.junit.jupiter.api.Test;

/** The audit command's options from the configuration: the witnesses whose cosignatures it verifies. */
class AuditCommandTest {
    @Test
    void theWitnessesAndTheirQuorumComeFromTheConfiguration() {
        Cosigner.Key a = Cosigner.Key.generate("witness-a.example");
        Cosigner.Key b = Cosigner.Key.generate("witness-b.example");
        AuditOptions none = AuditCommand.options(Configuration.load(Map.of()), "b", List.of());
        assertTrue(none.witnesses().isEmpty(), "no witnesses configured");
        AuditOptions two = AuditCommand.options(
                Configuration.load(Map.of(
                        "ELECTORAL_LOG_WITNESSES",
                        a.verifierKey() + " https://a.example," + b.verifierKey() + " https://b.example",
                        "ELECTORAL_LOG_WITNESS_QUORUM",
                        "2")),
                "b",
                List.of());
        assertEquals(2, two.witnesses().witnesses().size());
        assertEquals(2, two.witnesses().flatQuorum());
        IllegalArgumentException bad = assertThrows(
                IllegalArgumentException.class,
                () -> AuditCommand.options(
                        Configuration.load(Map.of("ELECTORAL_LOG_WITNESSES", "not-a-key")), "b", List.of()));
        assertTrue(bad.getMessage().contains("<cosigner vkey> <URL>"), bad.getMessage());
    }
}
