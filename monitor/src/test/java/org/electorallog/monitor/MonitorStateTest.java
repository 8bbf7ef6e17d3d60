package org.electorallog.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The monitor's state directory: a board's state read back as written (by another instance, as
 * after a restart), no temporary file left, findings appended one JSON line each, a name that is
 * no board name (such as a hostile API could list) refused instead of becoming a path, and a damaged
 * state file reported rather than silently replaced.
 */
class MonitorStateTest {
    @Test
    void stateSurvivesARestartAndRefusesWhatIsNoBoard() throws Exception {
        Path dir = Files.createTempDirectory(Files.createDirectories(Path.of("target/tmp")), "monitor-state-");
        new MonitorState(dir).write("board-1", new MonitorState.Board("note\n", "http://api", 7, 5, 3));
        MonitorState again = new MonitorState(dir);
        assertEquals(
                new MonitorState.Board("note\n", "http://api", 7, 5, 3),
                again.read("board-1").orElseThrow());
        assertEquals(List.of("board-1"), again.boards());
        assertTrue(again.read("board-2").isEmpty());
        assertFalse(Files.exists(dir.resolve("board-1.json.tmp")));

        again.append(new Finding(Finding.Kind.FORK, "board-1", "http://api", "two trees", "a", "b", List.of("h")));
        again.append(new Finding(Finding.Kind.SEAL_MISMATCH, "board-1", "http://api", "moved", "a", null, List.of()));
        assertEquals(2, Files.readAllLines(dir.resolve("findings.jsonl")).size());

        assertThrows(IllegalArgumentException.class, () -> again.read("../outside"));
        assertThrows(
                IllegalArgumentException.class, () -> again.write("A/B", new MonitorState.Board("n", "u", -1, 0, -1)));
        Files.writeString(dir.resolve("board-3.json"), "{not json");
        // a state written before the entries' reading was kept: every entry up to its checkpoint counted read
        String note = org.electorallog.core.SignedNote.sign(
                "monitor-test.electoral-log.local/old\n12\n"
                        + java.util.Base64.getEncoder().encodeToString(new byte[32]) + "\n",
                org.electorallog.core.NoteSigner.generate("monitor-test.electoral-log.local"));
        Files.writeString(
                dir.resolve("old.json"),
                new com.fasterxml.jackson.databind.ObjectMapper()
                        .createObjectNode()
                        .put("checkpoint", note)
                        .put("source", "http://api")
                        .put("sealed_size", -1)
                        .toString());
        assertEquals(
                new MonitorState.Board(note, "http://api", -1, 12, -1),
                again.read("old").orElseThrow());
        IllegalStateException damaged = assertThrows(IllegalStateException.class, () -> again.read("board-3"));
        assertTrue(damaged.getMessage().contains("restore it from a backup"), damaged.getMessage());
    }
}
