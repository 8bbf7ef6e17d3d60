package org.electorallog.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** When the first statement published after an event became provable, from the watcher's sightings. */
class ProvableTimeTest {
    // statements published at 10, 20, 30, 40; checkpoints of sizes 1, 2 and 4 seen at 15, 50 and 90
    private static final List<Long> PUBLISHED = List.of(10L, 20L, 30L, 40L);
    private static final List<long[]> SIZES = List.of(new long[] {15, 1}, new long[] {50, 2}, new long[] {90, 4});

    @Test
    void theFirstStatementAfterTheEventCountsFromTheEvent() {
        // the event at 18: the first statement after it is the second (leaf 1), in size 2 seen at 50
        assertEquals(32, ProvableTime.after(PUBLISHED, SIZES, 0, 18));
        // the event at 25: the third (leaf 2) needs size 3, first seen as size 4 at 90
        assertEquals(65, ProvableTime.after(PUBLISHED, SIZES, 0, 25));
    }

    @Test
    void nothingPublishedOrServedYetIsMinusOne() {
        assertEquals(-1, ProvableTime.after(PUBLISHED, SIZES, 0, 41), "nothing published after the event");
        assertEquals(-1, ProvableTime.after(PUBLISHED, SIZES, 1, 35), "leaf 4 (start 1 + 3) not served yet");
    }

    @Test
    void aBoardThatHadRecordsBeforeCountsFromItsStartSize() {
        // with one record before the first publication, the second statement is leaf 2: size 3 at 90
        assertEquals(72, ProvableTime.after(PUBLISHED, SIZES, 1, 18));
    }

    @Test
    void theLagCountsFromTheFirstStatementNotYetServed() {
        // served size 2 at 55: the third statement (published at 30) waits, 25 so far
        assertEquals(25, ProvableTime.lag(PUBLISHED, 2, 0, 55));
        assertEquals(0, ProvableTime.lag(PUBLISHED, 4, 0, 95), "every statement served");
        assertEquals(45, ProvableTime.lag(PUBLISHED, 0, 0, 55), "nothing served yet: from the first");
        // one record before the first publication: size 2 holds only the first statement
        assertEquals(35, ProvableTime.lag(PUBLISHED, 2, 1, 55));
    }
}
