package org.electorallog.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 43 item 5: the rehearsal on the reference topology, every part a real process (three Kafka
 * nodes, PostgreSQL primary and standby, two projectors, two APIs behind haproxy), through its five
 * faults. CI runs the small size; {@code -Pfull} the full one ({@link Rehearsal#full}). Recovery
 * times are measured and written to the results file, not asserted.
 */
class RehearsalTest {
    @Test
    @SuppressWarnings("unchecked")
    void everyFaultLeavesNothingLostDoubledOrForked() throws Exception {
        Path work = Path.of(System.getProperty("electoral-log.work-dir"), "rehearsal");
        Rehearsal size = Boolean.getBoolean("electoral-log.rehearsal.full") ? Rehearsal.full() : Rehearsal.small();
        Map<String, Object> out = size.run(work, work.resolveSibling("rehearsal.json"), Map.of());

        Map<String, Object> statements = (Map<String, Object>) out.get("statements");
        // a broker-leader kill, a projector kill, a cut and a failover lose and double nothing acknowledged
        assertEquals(0L, ((Number) statements.get("lost")).longValue(), () -> "lost: " + statements);
        assertEquals(0L, ((Number) statements.get("doubled")).longValue(), () -> "doubled: " + statements);
        // infrastructure faults are not bad statements
        assertEquals(0L, ((Number) out.get("dead_lettered")).longValue());
        // every checkpoint served, also before the failover, is a prefix of the final tree
        assertTrue(((Number) out.get("checkpoints_served")).longValue() > 0);
        assertEquals(List.of(), out.get("checkpoints_inconsistent"));
        // the promoted standby, brought forward from the topic, equals a replay
        Map<String, Object> rebuild = (Map<String, Object>) out.get("rebuild");
        assertEquals(0, ((Number) rebuild.get("exit")).intValue(), () -> "rebuild: " + rebuild);

        // the witness cosigned every board's final checkpoint, also after the failover rolled the
        // projection back behind what it had cosigned
        Map<String, Map<String, Object>> witnessed = (Map<String, Map<String, Object>>) out.get("witnessed");
        assertEquals(size.boards(), witnessed.size());
        witnessed.forEach((board, w) -> assertEquals(w.get("size"), w.get("largest_cosigned"), board));

        List<Map<String, Object>> faults = (List<Map<String, Object>>) out.get("faults");
        assertEquals(
                List.of("broker-leader-kill", "projector-kill", "api-kill", "database-path-cut", "primary-failover"),
                faults.stream().map(f -> f.get("fault")).toList());
        // the failover was to a standby that had missed projected batches, which the projectors then
        // brought forward from the topic (the rebuild above found the result equal to a replay)
        Map<String, Object> failover = faults.get(4);
        assertTrue(((Number) failover.get("events_standby_missed")).longValue() > 0, () -> "failover: " + failover);
        Map<String, Object> apiKill = faults.get(2);
        // an API behind the proxy keeps answering when one instance dies: haproxy retries on the other
        assertTrue(((Number) apiKill.get("voter_requests")).longValue() > 0, () -> "no voter requests: " + apiKill);
        assertEquals(0L, ((Number) apiKill.get("voter_errors")).longValue(), () -> "api-kill: " + apiKill);
    }
}
