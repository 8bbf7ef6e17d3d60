package org.electorallog.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Issue 61 item 9: a board's heads link is looked up once per witnessed heads checkpoint, "none"
 * included, and again once that checkpoint or its cosignatures change; the table is bounded.
 */
class HeadLinkCacheTest {
    @Test
    void aLinkIsKeptForItsWitnessedHeadsCheckpointOnly() {
        HeadLinkCache<String> cache = new HeadLinkCache<>();
        assertNull(cache.get("b1", "heads at 7"), "not looked up yet");
        cache.put("b1", "heads at 7", Optional.of("link of b1 in 7"));
        cache.put("b2", "heads at 7", Optional.empty());
        assertEquals(Optional.of("link of b1 in 7"), cache.get("b1", "heads at 7"));
        assertEquals(Optional.empty(), cache.get("b2", "heads at 7"), "no link yet is kept too");
        assertNull(cache.get("b1", "heads at 9"), "a newer heads checkpoint: looked up again");
        assertNull(cache.get("b1", "heads at 7 + another cosignature"), "more cosignatures: looked up again");
        cache.put("b1", "heads at 9", Optional.of("link of b1 in 9"));
        assertEquals(Optional.of("link of b1 in 9"), cache.get("b1", "heads at 9"));
    }

    @Test
    void theTableIsBounded() {
        HeadLinkCache<String> cache = new HeadLinkCache<>();
        for (int i = 0; i < HeadLinkCache.MAX_BOARDS; i++) {
            cache.put("b" + i, "h", Optional.empty());
        }
        assertEquals(HeadLinkCache.MAX_BOARDS, cache.size());
        cache.put("b0", "h2", Optional.empty());
        assertEquals(HeadLinkCache.MAX_BOARDS, cache.size(), "a board held already replaces its entry");
        cache.put("one-more", "h", Optional.empty());
        assertEquals(1, cache.size(), "past the bound the table starts over");
    }
}
