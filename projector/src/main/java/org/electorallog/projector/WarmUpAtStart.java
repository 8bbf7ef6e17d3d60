package org.electorallog.projector;

import java.time.Duration;
import java.util.List;
import org.electorallog.schemas.StatementCodec;
import org.electorallog.store.Projection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The projector's warm-up as it starts, before Kafka Streams takes its partitions. */
final class WarmUpAtStart {
    private static final Logger LOG = LoggerFactory.getLogger(WarmUpAtStart.class);

    private WarmUpAtStart() {}

    /**
     * Decisions 75 and 81: the per-event and per-batch code compiled before the first event, on
     * made-up statements and the topic's last events (see {@link ProjectorWarmUp}).
     */
    static void run(ProjectorSettings settings, StatementCodec codec, Projection transactions) {
        long t0 = System.nanoTime();
        // an optimisation, never a reason not to project: a failed warm-up (a made-up statement the
        // rules now refuse; ProjectorWarmUpTest catches that drift) is reported and the start goes on
        try {
            // decision 81: the topic's last events as well, decoded by the stream thread's own codec;
            // when they cannot be read, the warm-up goes on with its made-up statements alone
            List<byte[]> recent;
            try {
                recent = RecentEvents.read(
                        settings.kafkaClient(),
                        settings.topic(),
                        ProjectorWarmUp.recentEvents(settings.warmUpStatements()),
                        Duration.ofSeconds(10));
            } catch (RuntimeException e) {
                LOG.warn(
                        "projector warm-up: the topic's last events could not be read; warming up on made-up "
                                + "statements only: {}",
                        e.toString());
                recent = List.of();
            }
            // made-up statements through the embedded registry's codec: nothing registered anywhere
            ProjectorWarmUp w = new ProjectorWarmUp(
                    settings.schemaRegistryUrl() == null ? codec : StatementCodec.embedded(),
                    settings.signatures().mode() != SignaturePolicy.Mode.NONE,
                    codec,
                    recent);
            long n = w.run(settings.warmUpStatements());
            long t1 = System.nanoTime();
            long written = w.write(
                    transactions,
                    new BoardWriter(settings.originPrefix(), settings.signatures()),
                    ProjectorWarmUp.writeRounds(settings.warmUpStatements()));
            LOG.info(
                    "projector warmed up on {} statements ({} of them made up, {} the topic's last events) in {} ms, "
                            + "then wrote {} to PostgreSQL in rolled-back transactions in {} ms",
                    n,
                    ProjectorWarmUp.BATCH,
                    w.messages().size() - ProjectorWarmUp.BATCH,
                    (t1 - t0) / 1_000_000,
                    written,
                    (System.nanoTime() - t1) / 1_000_000);
        } catch (RuntimeException e) {
            LOG.warn(
                    "projector warm-up failed after {} ms; starting without it (the first events run slower): {}",
                    (System.nanoTime() - t0) / 1_000_000,
                    e.toString(),
                    e);
        }
    }
}
