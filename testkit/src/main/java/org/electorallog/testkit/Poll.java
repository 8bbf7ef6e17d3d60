package org.electorallog.testkit;

import java.time.Duration;
import java.util.function.Predicate;

/**
 * The one way a test waits for something another thread or process does: it asks again every
 * interval until the answer is the one awaited, and fails with what was awaited and the last answer
 * once the timeout has passed. The condition is the synchronisation; the interval only spaces the
 * questions (never a sleep standing in for one).
 */
public final class Poll {
    /** How often to ask when the caller does not say. */
    public static final Duration INTERVAL = Duration.ofMillis(50);

    private Poll() {}

    /** A question that may throw (a query, a request); its exception fails the wait. */
    @FunctionalInterface
    public interface Probe<T> {
        T get() throws Exception;
    }

    /** A condition that may throw. */
    @FunctionalInterface
    public interface Condition {
        boolean holds() throws Exception;
    }

    /** Waits until {@code condition} holds, asking every {@link #INTERVAL}. */
    public static void until(Duration timeout, String what, Condition condition) throws InterruptedException {
        until(timeout, INTERVAL, what, condition::holds, held -> held);
    }

    /** Waits until {@code probe}'s answer satisfies {@code done}, asking every {@link #INTERVAL}; returns that answer. */
    public static <T> T until(Duration timeout, String what, Probe<T> probe, Predicate<? super T> done)
            throws InterruptedException {
        return until(timeout, INTERVAL, what, probe, done);
    }

    /** Waits until {@code probe}'s answer satisfies {@code done}, asking every {@code interval}; returns that answer. */
    public static <T> T until(
            Duration timeout, Duration interval, String what, Probe<T> probe, Predicate<? super T> done)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            T answer;
            try {
                answer = probe.get();
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                throw new AssertionError("while waiting for " + what + ": " + e, e);
            }
            if (done.test(answer)) {
                return answer;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + timeout + ": " + what + " (last: " + answer + ")");
            }
            Thread.sleep(interval.toMillis()); // the interval between two questions, not a wait for an event
        }
    }
}
