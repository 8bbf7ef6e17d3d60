package org.electorallog.projector;

import org.electorallog.store.Projection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The witnessing leader's lock: a PostgreSQL session advisory lock held on a connection of its own,
 * so that one process per projection database asks the witnesses and writes the heads board; when
 * that process dies its session ends and another instance takes the lock at its next round.
 */
final class WitnessingLock implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(WitnessingLock.class);
    /** The advisory lock key: one witnessing process per projection database. */
    static final long KEY = 0x656c5f7769746e65L; // "el_witne"

    private final ProjectorSettings settings;
    private Projection.AdvisoryLock lock;

    WitnessingLock(ProjectorSettings settings) {
        this.settings = settings;
    }

    /** Whether this process holds the lock (taking it when free). */
    synchronized boolean hold() {
        if (lock != null && lock.valid(2)) {
            return true;
        }
        release();
        lock = Projection.sessionLock(settings.login(), KEY);
        return lock != null;
    }

    /** Lets the lock go (after a failed round: the next round takes it again, or another process does). */
    synchronized void release() {
        if (lock != null) {
            try {
                lock.close(); // ending the session releases its advisory lock
            } catch (RuntimeException e) {
                LOG.debug("closing the witnessing lock connection: {}", e.toString());
            }
            lock = null;
        }
    }

    @Override
    public void close() {
        release();
    }
}
