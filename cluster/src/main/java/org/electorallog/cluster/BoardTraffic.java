package org.electorallog.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One board's side of the rehearsal: the statements published to it in order (when, and with which
 * delivery ID), which Kafka acknowledged, and the checkpoints the voters' watcher was served through
 * the load balancer (when each size was first seen, and every size's root).
 */
final class BoardTraffic {
    final String name;
    private final List<Long> published = new ArrayList<>();
    private final List<String> deliveryIds = new ArrayList<>();
    final Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    final AtomicLong failed = new AtomicLong();
    private final List<long[]> sizes = new ArrayList<>(); // {nanos, size}, sizes growing
    /** Every size served with its root (base64); a second root for a size is a fork. */
    final Map<Long, String> roots = new ConcurrentHashMap<>();

    final List<String> forks = new CopyOnWriteArrayList<>();

    BoardTraffic(String name) {
        this.name = name;
    }

    synchronized void published(long nanos, String deliveryId) {
        published.add(nanos);
        deliveryIds.add(deliveryId);
    }

    synchronized int publishedCount() {
        return published.size();
    }

    synchronized List<String> deliveryIds() {
        return List.copyOf(deliveryIds);
    }

    /** Records a checkpoint served at {@code nanos}; a root differing from one served before for its size is a fork. */
    void served(long nanos, long size, String root) {
        String before = roots.putIfAbsent(size, root);
        if (before != null && !before.equals(root)) {
            forks.add("board " + name + " size " + size + ": root " + before + " and later " + root);
        }
        synchronized (this) {
            if (sizes.isEmpty() || sizes.get(sizes.size() - 1)[1] < size) {
                sizes.add(new long[] {nanos, size});
            }
        }
    }

    /**
     * Nanos from {@code event} until the first statement published at or after it was in a served
     * checkpoint (statements are published to a board one at a time, so the i-th is leaf i); -1 if
     * not yet.
     */
    synchronized long provableAfter(long event) {
        return ProvableTime.after(published, sizes, 0, event);
    }

    /** Nanos since the first statement not yet in a served checkpoint was published (0: none waits). */
    synchronized long lag(long now) {
        return ProvableTime.lag(published, servedSize(), 0, now);
    }

    /** The largest size served so far. */
    synchronized long servedSize() {
        return sizes.isEmpty() ? 0 : sizes.get(sizes.size() - 1)[1];
    }
}
