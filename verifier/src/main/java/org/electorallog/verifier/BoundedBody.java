package org.electorallog.verifier;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * A response body read whole up to a limit (issue 61 item 9): a body the API announces larger, or
 * that grows larger while it streams, fails the request with an {@link IOException} naming the
 * limit, instead of filling the monitor's or {@code verify-board}'s memory. What a file of a board
 * may hold is known (C2SP tlog-tiles: a hash tile is at most 256 hashes, an entry bundle at most 256
 * entries of 2^16 - 1 bytes each); {@link LogEndpoint} picks the limit by path.
 */
final class BoundedBody implements HttpResponse.BodySubscriber<byte[]> {
    private final long limit;
    private final String what;
    private final CompletableFuture<byte[]> result = new CompletableFuture<>();
    private final ByteArrayOutputStream held = new ByteArrayOutputStream();
    private Flow.Subscription subscription;

    private BoundedBody(long limit, String what) {
        this.limit = limit;
        this.what = what;
    }

    /** A handler that reads at most {@code limit} bytes of the body of {@code what} (a URL). */
    static HttpResponse.BodyHandler<byte[]> handler(long limit, String what) {
        return info -> {
            long announced = info.headers().firstValueAsLong("Content-Length").orElse(-1);
            BoundedBody body = new BoundedBody(limit, what);
            if (announced > limit) {
                body.result.completeExceptionally(body.tooLarge("announces " + announced + " bytes"));
            }
            return body;
        };
    }

    private IOException tooLarge(String how) {
        return new IOException(what + ": the body " + how + ", more than the " + limit
                + " bytes such a file can hold; not read further");
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        subscription = s;
        if (result.isDone()) {
            s.cancel();
        } else {
            s.request(Long.MAX_VALUE);
        }
    }

    @Override
    public void onNext(List<ByteBuffer> buffers) {
        if (result.isDone()) {
            return;
        }
        for (ByteBuffer b : buffers) {
            if (held.size() + (long) b.remaining() > limit) {
                subscription.cancel();
                result.completeExceptionally(tooLarge("holds more"));
                return;
            }
            byte[] chunk = new byte[b.remaining()];
            b.get(chunk);
            held.write(chunk, 0, chunk.length);
        }
    }

    @Override
    public void onError(Throwable t) {
        result.completeExceptionally(t);
    }

    @Override
    public void onComplete() {
        result.complete(held.toByteArray());
    }

    @Override
    public CompletionStage<byte[]> getBody() {
        return result;
    }
}
