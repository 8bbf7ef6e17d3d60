package org.electorallog.projector;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.electorallog.config.Configuration;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.core.Cosigner;
import org.electorallog.core.NoteSigner;
import org.junit.jupiter.api.Test;

/**
 * The witness mode as configured: an unknown mode is refused by name before anything connects, and
 * the head sender key of before decision 130 is no setting any more (the head writer signs with the
 * log's key).
 */
class WitnessModeTest {
    private static final ProjectorSettings SETTINGS = ProjectorSettings.defaults(
            "127.0.0.1:9",
            new DatabaseLogin("jdbc:postgresql://127.0.0.1:9/none", "u", "p"),
            Path.of("target/none"),
            NoteSigner.generate("mode.electoral-log.local"));
    private static final String WITNESS = Cosigner.Key.generate("w.mode.test").verifierKey() + " http://127.0.0.1:9";

    @Test
    void anUnknownModeAndTheRetiredHeadKeyAreRefused() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> Witnessing.start(
                        Configuration.load(
                                Map.of("ELECTORAL_LOG_WITNESSES", WITNESS, "ELECTORAL_LOG_WITNESS_MODE", "HEAD")),
                        SETTINGS));
        assertTrue(
                e.getMessage().contains("ELECTORAL_LOG_WITNESS_MODE must be BOARDS or HEADS, got 'HEAD'"),
                e.getMessage());
        // the retired head sender key is refused by name: heads entries are signed by the log's key
        e = assertThrows(
                IllegalArgumentException.class,
                () -> Configuration.load(Map.of("ELECTORAL_LOG_HEAD_SENDER_KEY", "AAAA")));
        assertTrue(e.getMessage().contains("ELECTORAL_LOG_HEAD_SENDER_KEY"), e.getMessage());
    }
}
