package org.electorallog.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The interleaved probe's order and its per-row accounting (decision 69). */
class ProbeScheduleTest {
    @Test
    void everyRunOfEveryRowOnceInAMixedOrderThatRepeatsWithTheSeed() {
        List<int[]> order = ProbeRun.interleaved(32, 500, 11);
        assertEquals(32 * 500, order.size());
        Set<Long> seen = new HashSet<>();
        for (int[] run : order) {
            assertTrue(run[0] >= 0 && run[0] < 32 && run[1] >= 0 && run[1] < 500);
            assertTrue(seen.add(run[0] * 1_000L + run[1]), "row " + run[0] + " run " + run[1] + " twice");
        }
        // not row by row: the first 500 runs are spread over (almost) every row
        Set<Integer> rowsInFirstBlock = new HashSet<>();
        order.subList(0, 500).forEach(run -> rowsInFirstBlock.add(run[0]));
        assertTrue(rowsInFirstBlock.size() >= 30, "rows in the first 500 runs: " + rowsInFirstBlock.size());
        assertEquals(flat(order), flat(ProbeRun.interleaved(32, 500, 11)), "the same seed, the same order");
        assertFalse(flat(order).equals(flat(ProbeRun.interleaved(32, 500, 12))), "another seed, another order");
    }

    @Test
    void aRowsActivityIsTheSumOfItsRunsAndStealIsLeftOutWhereUnknown() {
        JvmActivity before = new JvmActivity(100, 3, 40, 7);
        JvmActivity after = new JvmActivity(130, 5, 52, 9);
        JvmActivity run = after.since(before);
        JvmActivity total = JvmActivity.NONE.plus(run).plus(run);
        assertEquals(
                Map.of(
                        "jit_ms_during",
                        60L,
                        "gc_collections_during",
                        4L,
                        "gc_ms_during",
                        24L,
                        "cpu_steal_ms_during",
                        40L),
                total.during());
        JvmActivity noSteal = new JvmActivity(130, 5, 52, -1).since(before);
        assertFalse(total.plus(noSteal).during().containsKey("cpu_steal_ms_during"), "unknown steal is not 0");
    }

    private static List<Long> flat(List<int[]> order) {
        List<Long> out = new ArrayList<>();
        order.forEach(run -> out.add(run[0] * 1_000L + run[1]));
        return out;
    }
}
