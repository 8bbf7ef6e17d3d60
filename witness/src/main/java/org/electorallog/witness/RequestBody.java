package org.electorallog.witness;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import org.eclipse.jetty.io.Content;

/**
 * Reads a request body without holding a thread, keeping at most {@code max} bytes and reading
 * (then dropping) the rest of an oversized body up to {@code drainLimit} bytes, so the client has
 * sent everything before it is answered 413 and reads that answer instead of a reset connection.
 * A body past {@code drainLimit} is answered at once and its connection closed (the client was
 * told by the 413 it may never see; nothing is read without end).
 */
final class RequestBody {
    /** What the read came to: exactly one of these is called, once. */
    interface Outcome {
        void body(byte[] bytes);

        void tooLarge();

        /** The client went away or fell silent for the read timeout. */
        void failed(Throwable failure);
    }

    private final Content.Source source;
    private final int max;
    private final long drainLimit;
    private final Outcome outcome;
    private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
    private long seen;

    private RequestBody(Content.Source source, int max, long drainLimit, Outcome outcome) {
        this.source = source;
        this.max = max;
        this.drainLimit = drainLimit;
        this.outcome = outcome;
    }

    static void read(Content.Source source, int max, long drainLimit, Outcome outcome) {
        if (source.getLength() > drainLimit) {
            outcome.tooLarge();
            return;
        }
        new RequestBody(source, max, drainLimit, outcome).next();
    }

    /** Takes every chunk that is there, then asks to be called again when more arrives. */
    private void next() {
        while (true) {
            Content.Chunk chunk = source.read();
            if (chunk == null) {
                source.demand(this::next);
                return;
            }
            if (Content.Chunk.isFailure(chunk)) {
                outcome.failed(chunk.getFailure());
                return;
            }
            boolean last = chunk.isLast();
            take(chunk.getByteBuffer());
            chunk.release();
            if (seen > drainLimit) {
                outcome.tooLarge();
                return;
            }
            if (last) {
                if (seen > max) {
                    outcome.tooLarge();
                } else {
                    outcome.body(kept.toByteArray());
                }
                return;
            }
        }
    }

    private void take(ByteBuffer buffer) {
        int n = buffer.remaining();
        if (seen + n <= max) {
            byte[] bytes = new byte[n];
            buffer.get(bytes);
            kept.write(bytes, 0, n);
        }
        seen += n;
    }
}
