package org.electorallog.cluster;

import java.util.List;

/**
 * How long a board was not provable after an event, from what a watcher saw: the statements
 * published to the board one at a time (so the i-th is leaf {@code startSize + i}) and the
 * checkpoint sizes it was served, each with when it first saw them. Used by the rehearsal and by
 * {@code perf recovery}.
 */
public final class ProvableTime {
    private ProvableTime() {}

    /**
     * Nanos from {@code event} until the first statement published at or after it was in a served
     * checkpoint; -1 if none was yet.
     *
     * @param published when each statement was published (nanos), in publication order
     * @param sizes     {nanos, size} of the served checkpoints, sizes growing
     */
    public static long after(List<Long> published, List<long[]> sizes, long startSize, long event) {
        int first = -1;
        for (int i = 0; i < published.size(); i++) {
            if (published.get(i) >= event) {
                first = i;
                break;
            }
        }
        if (first < 0) {
            return -1;
        }
        for (long[] s : sizes) {
            if (s[1] >= startSize + first + 1) {
                return Math.max(0, s[0] - event);
            }
        }
        return -1;
    }

    /**
     * How far behind a board is at {@code now}: nanos since the first statement not yet in a served
     * checkpoint was published; 0 when every published statement is.
     *
     * @param servedSize the largest checkpoint size served so far
     */
    public static long lag(List<Long> published, long servedSize, long startSize, long now) {
        long first = servedSize - startSize; // index of the first statement not yet served
        if (first >= published.size()) {
            return 0;
        }
        return Math.max(0, now - published.get((int) Math.max(0, first)));
    }
}
