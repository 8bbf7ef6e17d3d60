package org.electorallog.launcher;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.producer.ProducerBuilder;
import org.electorallog.producer.PublishResult;
import org.electorallog.producer.Recordings;
import org.electorallog.schemas.StatementJson;
import org.electorallog.schemas.avro.Statement;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code electoral-log publish}: publishes one statement given as JSON, or many from a JSONL file or
 * standard input, with a progress line and a final count of acknowledged and failed statements. A bad
 * line is reported with its line number and the rest are still published. With {@code --api} it
 * then waits until each statement is recorded on its board ({@link Recordings}), not only
 * acknowledged. Exit 0 only when every statement was acknowledged (and, with {@code --api},
 * recorded).
 */
@Command(
        name = "publish",
        mixinStandardHelpOptions = true,
        description = "Publish statements (JSON, see schemas/README.md) to the events topic.")
public final class PublishCommand implements Callable<Integer> {
    @Parameters(arity = "0..*", paramLabel = "JSON", description = "statements as JSON objects")
    List<String> statements = new ArrayList<>();

    @Option(
            names = {"-f", "--file"},
            paramLabel = "FILE",
            description = "JSONL file, one statement per line; '-' for standard input")
    String file;

    @Option(
            names = "--api",
            paramLabel = "URL",
            description =
                    "a query API to ask, once Kafka acknowledged them, whether the statements are recorded on their "
                            + "boards (one request each: for a ceremony's statements, not a bulk load)")
    String api;

    @Option(
            names = "--timeout",
            defaultValue = "120",
            description = "with --api, seconds to wait for the statements to be recorded; default ${DEFAULT-VALUE}")
    int timeoutSeconds;

    @picocli.CommandLine.Mixin
    ProducerOptions producer = new ProducerOptions();

    private final PrintStream out;
    private final PrintStream err;
    private final InputStream stdin;

    public PublishCommand() {
        this(System.out, System.err, System.in);
    }

    public PublishCommand(PrintStream out, PrintStream err, InputStream stdin) {
        this.out = out;
        this.err = err;
        this.stdin = stdin;
    }

    @Override
    public Integer call() throws IOException {
        if ((file == null) == statements.isEmpty()) {
            err.println(
                    "publish: give statements as JSON arguments or --file FILE (or --file - for standard input), not both");
            return 2;
        }
        ProducerBuilder b;
        try {
            b = producer.builder();
        } catch (IllegalArgumentException e) {
            err.println("publish: " + e.getMessage());
            return 2;
        }
        long total = file == null || file.equals("-") ? -1 : Files.size(Path.of(file));
        AtomicLong acknowledged = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        long lines = 0;
        long bytesRead = 0;
        long lastProgress = 0;
        List<CompletableFuture<PublishResult>> pending = new ArrayList<>();
        try (ElectoralLogProducer publisher = b.build();
                BufferedReader reader = reader()) {
            String line;
            while ((line = reader.readLine()) != null) {
                lines++;
                bytesRead += line.length() + 1;
                if (line.isBlank()) {
                    continue;
                }
                long lineNo = lines;
                try {
                    Statement st = StatementJson.parse(line);
                    CompletableFuture<PublishResult> f = publisher.publish(st);
                    f.whenComplete((r, e) -> {
                        if (e == null) {
                            acknowledged.incrementAndGet();
                        } else {
                            failed.incrementAndGet();
                            err.println("\nline " + lineNo + ": not acknowledged: " + e.getMessage());
                        }
                    });
                    pending.add(f);
                } catch (StatementJson.InvalidStatementJson | IllegalArgumentException e) {
                    failed.incrementAndGet();
                    err.println("\nline " + lineNo + ": " + e.getMessage());
                }
                long now = System.nanoTime();
                if (now - lastProgress > 200_000_000L) {
                    progress(bytesRead, total, lines, acknowledged.get(), failed.get());
                    lastProgress = now;
                }
            }
            publisher.flush();
        }
        for (CompletableFuture<PublishResult> f : pending) {
            f.handle((r, e) -> null).join();
        }
        progress(bytesRead, total, lines, acknowledged.get(), failed.get());
        err.println();
        out.printf("acknowledged %d, failed %d%n", acknowledged.get(), failed.get());
        if (api != null && !pending.isEmpty()) {
            return recorded(pending) && failed.get() == 0 ? 0 : 1;
        }
        return failed.get() == 0 ? 0 : 1;
    }

    /**
     * With {@code --api}: whether every acknowledged statement is recorded on its board within the
     * timeout (issue 61 item 7: the outcome, not Kafka's ack), each one reported.
     */
    private boolean recorded(List<CompletableFuture<PublishResult>> sent) throws IOException {
        Recordings recordings = new Recordings(api);
        long deadline = System.nanoTime() + Duration.ofSeconds(timeoutSeconds).toNanos();
        long recorded = 0;
        long missing = 0;
        for (CompletableFuture<PublishResult> f : sent) {
            if (f.isCompletedExceptionally()) {
                continue; // reported as not acknowledged already
            }
            PublishResult r = f.join();
            Optional<Recordings.Recorded> found;
            try {
                found = recordings.await(r, Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for the statements to be recorded", e);
            }
            if (found.isPresent()) {
                recorded++;
                out.printf(
                        "%s recorded on board %s as record %d%n",
                        r.deliveryId(), r.board(), found.get().record());
            } else {
                missing++;
                err.printf(
                        "%s is not recorded on board %s within %d s: refused (`electoral-log dead-letters --board %s` "
                                + "says why) or the projector lags%n",
                        r.deliveryId(), r.board(), timeoutSeconds, r.board());
            }
        }
        out.printf("recorded %d, not recorded %d%n", recorded, missing);
        return missing == 0;
    }

    private BufferedReader reader() throws IOException {
        if (file == null) {
            return new BufferedReader(new StringReader(String.join("\n", statements)));
        }
        InputStream in = file.equals("-") ? stdin : Files.newInputStream(Path.of(file));
        return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    }

    private void progress(long read, long total, long lines, long acked, long failedCount) {
        String bar = "";
        if (total > 0) {
            int width = 30;
            int done = (int) Math.min(width, read * width / Math.max(1, total));
            bar = "[" + "#".repeat(done) + ".".repeat(width - done) + "] ";
        }
        err.printf("\r%s%d lines, acknowledged %d, failed %d", bar, lines, acked, failedCount);
    }
}
