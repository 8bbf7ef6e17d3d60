package org.electorallog.query;

import io.javalin.http.Context;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import org.eclipse.jetty.ee10.servlet.ServletContextRequest;
import org.eclipse.jetty.io.EndPoint;

/**
 * How many exports run at once, and how long one may wait on its client (issue 41). An export
 * holds a connection of the exports' own pool while it writes to its client, so slow clients can
 * hold at most {@code concurrency} of them, never the listing pool that anonymous reads and
 * listings share; one export more gets 429 with Retry-After. The connection's idle timeout is set
 * to the write timeout: a client that accepts no bytes for that long is cut off, and its export's
 * database connection goes back to the pool.
 */
final class ExportSlots {
    /** What a refused export is told to wait. */
    static final long RETRY_AFTER_SECONDS = 10;

    private final Semaphore slots;
    private final int concurrency;
    private final Duration writeTimeout;

    ExportSlots(int concurrency, Duration writeTimeout) {
        this.slots = new Semaphore(concurrency);
        this.concurrency = concurrency;
        this.writeTimeout = writeTimeout;
    }

    /** What an export does once it has a slot. */
    @FunctionalInterface
    interface Export {
        void run(Context ctx) throws Exception;
    }

    /** Runs {@code export} in a slot, or refuses it with 429 when every slot is taken. */
    void run(Context ctx, Export export) throws Exception {
        // looked up before the slot is taken: nothing may fail between taking it and the finally
        EndPoint endPoint = ServletContextRequest.getServletContextRequest(ctx.req())
                .getConnectionMetaData()
                .getConnection()
                .getEndPoint();
        if (!slots.tryAcquire()) {
            ctx.header("Retry-After", Long.toString(RETRY_AFTER_SECONDS));
            throw new ApiException(
                    Problem.Type.TOO_MANY_REQUESTS,
                    concurrency + " exports are running, as many as this instance runs at once "
                            + "(ELECTORAL_LOG_EXPORT_CONCURRENCY); retry after " + RETRY_AFTER_SECONDS + " s");
        }
        long idle = endPoint.getIdleTimeout();
        try {
            endPoint.setIdleTimeout(writeTimeout.toMillis());
            export.run(ctx);
        } finally {
            endPoint.setIdleTimeout(idle); // the connection may carry other requests after this one
            slots.release();
        }
    }
}
