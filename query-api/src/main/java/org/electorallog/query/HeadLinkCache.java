package org.electorallog.query;

import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A board's heads link lookup as last answered, kept while the witnessed heads checkpoint it was
 * answered in is the latest (issue 61 item 9): the lookup walks the board's checkpoints newest first
 * until one has its heads entry in that checkpoint, which for a board without one is every checkpoint
 * it has, and anonymous callers may ask as often as the rate limit lets them. For one witnessed heads
 * checkpoint the answer is fixed (entries added after it are beyond its size), so it is looked up
 * again only when that checkpoint changes, its cosignatures included. {@link HeadLinkService} keeps
 * "no link yet" only. At most {@link #MAX_BOARDS} boards are held; past them the table starts over.
 *
 * @param <L> the link
 */
final class HeadLinkCache<L> {
    static final int MAX_BOARDS = 10_000;

    /** A board's link (empty: none) as found in the witnessed heads checkpoint {@code heads}. */
    private record Held<L>(String heads, Optional<L> link) {}

    private final ConcurrentHashMap<String, Held<L>> held = new ConcurrentHashMap<>();

    /**
     * The board's link as found in the witnessed heads checkpoint {@code heads} (its cosigned note),
     * or null when it was not looked up in that checkpoint: the caller then looks it up and {@link
     * #put}s it.
     */
    Optional<L> get(String board, String heads) {
        Held<L> h = held.get(board);
        return h != null && h.heads().equals(heads) ? h.link() : null;
    }

    /** Keeps the board's link (empty: none) as found in {@code heads}. */
    void put(String board, String heads, Optional<L> link) {
        if (held.size() >= MAX_BOARDS && !held.containsKey(board)) {
            held.clear();
        }
        held.put(board, new Held<>(heads, link));
    }

    int size() {
        return held.size();
    }
}
