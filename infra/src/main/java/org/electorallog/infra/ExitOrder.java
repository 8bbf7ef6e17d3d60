package org.electorallog.infra;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Closes what is open, newest first and one after another, when the JVM exits (SIGTERM, Ctrl-C,
 * the end of {@code main}). The JVM runs its shutdown hooks all at once: with one hook per part,
 * the database could stop while the projector was still writing its last batch (each close then
 * waits for a connection that never comes, about 30 s). So the parts register here instead, in
 * the order they start: the stack first, then what runs on it; at exit the projector and query API
 * are closed before the stack they use. {@code close()} of what registers must be idempotent.
 */
public final class ExitOrder {
    private static final Deque<AutoCloseable> OPEN = new ArrayDeque<>();
    private static boolean hooked;
    private static volatile boolean exiting;

    private ExitOrder() {}

    /** Closes {@code part} at JVM exit, before everything registered earlier. */
    public static synchronized void register(AutoCloseable part) {
        if (!hooked) {
            Runtime.getRuntime().addShutdownHook(new Thread(ExitOrder::closeAll, "exit-order"));
            hooked = true;
        }
        OPEN.push(part);
    }

    /** Forgets {@code part} (called by its own close). */
    public static synchronized void unregister(AutoCloseable part) {
        OPEN.remove(part);
    }

    /** Whether the JVM is exiting (a signal or the end of {@code main}): failures of work cut short are expected then. */
    public static boolean exiting() {
        return exiting;
    }

    private static void closeAll() {
        exiting = true;
        while (true) {
            AutoCloseable next;
            synchronized (ExitOrder.class) {
                next = OPEN.poll();
            }
            if (next == null) {
                return;
            }
            try {
                next.close();
            } catch (Exception e) {
                System.err.println("stopping " + next + " failed: " + e);
            }
        }
    }
}
