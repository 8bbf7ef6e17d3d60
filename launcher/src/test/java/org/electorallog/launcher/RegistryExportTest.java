package org.electorallog.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.electorallog.store.SenderGrant;
import org.electorallog.verifier.RegistryExport;
import org.junit.jupiter.api.Test;

/**
 * What {@code senders export} writes ({@link RegistryFile}) is what {@code verify-board --senders}
 * reads (monitor {@link RegistryExport}, which cannot depend on the launcher): one format, so a
 * change to either side fails here.
 */
class RegistryExportTest {
    @Test
    void verifyBoardReadsWhatSendersExportWrites() throws Exception {
        byte[] key = new byte[32];
        key[0] = 7;
        Instant from = Instant.parse("2026-01-01T00:00:00Z");
        Instant until = Instant.parse("2026-02-01T00:00:00Z");
        Path file = Files.createTempFile(Files.createDirectories(Path.of("target/tmp")), "senders", ".jsonl");
        RegistryFile.write(
                file,
                List.of(
                        new SenderGrant(
                                1,
                                key,
                                "back-office",
                                "b",
                                List.of("BOARD_SEALED"),
                                from,
                                until,
                                from,
                                "cli",
                                from,
                                "cli",
                                "rotated"),
                        new SenderGrant(
                                2,
                                key,
                                "back-office",
                                SenderGrant.ANY,
                                List.of(SenderGrant.ANY),
                                until,
                                null,
                                until,
                                "cli",
                                null,
                                null,
                                null)));
        RegistryExport export = RegistryExport.read(file);
        long january = Instant.parse("2026-01-15T00:00:00Z").toEpochMilli();
        assertNull(export.refusal(key, "b", "BOARD_SEALED", january));
        assertEquals(
                "no grant of its sender key allows CAST_VOTE on b at 2026-01-15T00:00:00Z",
                export.refusal(key, "b", "CAST_VOTE", january));
        assertNull(export.refusal(key, "other", "CAST_VOTE", until.toEpochMilli()), "the open-ended grant of '*'");
        assertEquals("its sender key is not in the registry", export.refusal(new byte[32], "b", "CAST_VOTE", january));
    }
}
