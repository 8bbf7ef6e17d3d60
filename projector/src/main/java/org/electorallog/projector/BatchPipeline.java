package org.electorallog.projector;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The hand-over between a task's stream thread, which decodes and batches, and its batch writer's
 * thread, which writes, one batch at a time and in order, so that the next batch is decoded while
 * the last one is written (decision 78). The only class of the projector with two threads, and the
 * hand-over is in its types:
 * <ul>
 *   <li>{@link #start} gives the partition's {@link PartitionWrites} to the writer's thread; from then
 *       on only a {@link Step} touches it, on that thread, one at a time;</li>
 *   <li>a step returns the stored offset after it and whether a board waits for its checkpoint,
 *       which the stream thread reads from the step's {@link Future} ({@link #await}, a
 *       happens-before edge): no field is shared.</li>
 * </ul>
 * The stream thread awaits the step in progress before it hands over the next, so the writer never
 * has two; a failed step is thrown by {@link #await}, after which nothing more is handed over until
 * the partition is taken again ({@link #start}).
 */
final class BatchPipeline {
    /** What the writer's thread does with the partition's writes; returns what it leaves ({@link PartitionWrites#after}). */
    @FunctionalInterface
    interface Step {
        PartitionWrites.After run(PartitionWrites writes);
    }

    private final ExecutorService thread;
    private final int partition;
    /** The partition's writes, read only by steps on the writer's thread. */
    private PartitionWrites writes;
    /** The step in progress (null when none); the stream thread's alone. */
    private Future<PartitionWrites.After> writing;
    /** What the last step that finished left; the stream thread's alone. */
    private PartitionWrites.After last;

    BatchPipeline(String threadName, int partition) {
        ThreadPoolExecutor one = new ThreadPoolExecutor(1, 1, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
        // an idle task's thread ends (and a task Kafka Streams drops without closing leaves none)
        one.allowCoreThreadTimeOut(true);
        this.thread = one;
        this.partition = partition;
    }

    /** The partition was taken: its writes go to the writer's thread, starting at {@code writes}' stored offset. */
    void start(PartitionWrites taken) {
        if (writing != null) {
            throw new IllegalStateException("partition " + partition + " taken while a write is in progress");
        }
        this.last = taken.after();
        this.writes = taken; // published to the writer's thread by the next submit
    }

    /** Whether the writer's thread is still at the last step handed to it. */
    boolean busy() {
        return writing != null && !writing.isDone();
    }

    /** Awaits the step in progress, then hands {@code step} to the writer's thread. */
    void hand(Step step) {
        await();
        if (writes == null) {
            throw new IllegalStateException("partition " + partition + " is not taken: nothing can be written");
        }
        PartitionWrites w = writes;
        writing = thread.submit(() -> step.run(w));
    }

    /**
     * Waits until the step in progress is committed (or given up), before anything that reads what
     * a write changes or writes again; returns the stored offset. A failed step is thrown here, and
     * the partition's writes are dropped: what was not committed is read again from Kafka by the
     * next owner of the partition, which starts at PostgreSQL's stored offset, and this task must
     * not write again, least of all an offset move past the lost batch.
     */
    long await() {
        if (writing == null) {
            return last.storedOffset();
        }
        Future<PartitionWrites.After> w = writing;
        writing = null;
        try {
            last = w.get();
            return last.storedOffset();
        } catch (ExecutionException e) {
            writes = null;
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException("partition " + partition + ": writing a batch failed: " + e.getCause(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            writes = null;
            throw new IllegalStateException("partition " + partition + ": interrupted while a batch was written", e);
        }
    }

    /** The stored offset after the last step that finished (the stream thread's copy). */
    long storedOffset() {
        return last.storedOffset();
    }

    /** Whether, after the last step that finished, a written board still waits for its checkpoint. */
    boolean unsignedBoards() {
        return last.unsignedBoards();
    }

    /** Nothing more is handed over until the partition is taken again. */
    void stop() {
        writes = null;
    }

    void shutdown() {
        thread.shutdown();
    }
}
