package org.electorallog.producer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.electorallog.infra.EmbeddedKafkaBroker;
import org.electorallog.schemas.ElectionStatements;
import org.electorallog.schemas.StatementCodec;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.testkit.TopicReader;
import org.junit.jupiter.api.Test;

/**
 * The broker stops in the middle of a publish and comes back on the same data directory: every
 * statement whose future completed successfully is in the topic exactly once, and every other one
 * was reported to the caller as failed (no future is left hanging, nothing is doubled).
 */
class BrokerRestartTest {
    static final int STATEMENTS = 50_000;
    static final long OUTAGE_MILLIS = 3_000;

    @Test
    void nothingAcknowledgedIsLostOrDoubledAcrossABrokerRestart() throws Exception {
        Path dir = Files.createTempDirectory(Files.createDirectories(Path.of("target/stack")), "restart-");
        String topic = "restart-events";
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(dir.resolve("kafka"))) {
            EventsTopic.ensure(broker.bootstrapServers(), topic, 3, (short) 1);
            List<CompletableFuture<PublishResult>> futures = new ArrayList<>(STATEMENTS);
            List<String> ids = new ArrayList<>(STATEMENTS);
            Statement template = ElectionStatements.everyKind("restart-board").get(1);
            CountDownLatch stopNow = new CountDownLatch(1);
            AtomicReference<ElectoralLogProducer> producer = new AtomicReference<>();
            AtomicLong inFlightDuringOutage = new AtomicLong();
            Thread outage = new Thread(
                    () -> {
                        try {
                            stopNow.await();
                            broker.stop();
                            inFlightDuringOutage.set(producer.get().metrics().get("in_flight"));
                            Thread.sleep(
                                    OUTAGE_MILLIS); // the outage the producer must ride out (a scenario length, not a
                            // wait)
                            broker.restart();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    },
                    "broker-outage");
            outage.start();
            try (ElectoralLogProducer p = ElectoralLogProducer.builder(broker.bootstrapServers())
                    .topic(topic)
                    .blockWhenFull(Duration.ofMinutes(3))
                    .kafka("delivery.timeout.ms", "180000")
                    .kafka("request.timeout.ms", "10000")
                    .build()) {
                producer.set(p);
                for (int i = 0; i < STATEMENTS; i++) {
                    if (i == STATEMENTS * 3 / 10) {
                        stopNow.countDown();
                    }
                    String board = "restart-board-" + (i % 7);
                    String id = board + "/" + i;
                    ids.add(id);
                    futures.add(p.publish(Statement.newBuilder(template)
                            .setBoard(board)
                            .setDeliveryId(id)
                            .build()));
                }
            }
            outage.join();
            assertTrue(broker.isRunning());
            assertTrue(inFlightDuringOutage.get() > 0, "statements were in flight while the broker was down");
            Set<String> acknowledged = new HashSet<>();
            int failed = 0;
            for (int i = 0; i < STATEMENTS; i++) {
                CompletableFuture<PublishResult> f = futures.get(i);
                assertTrue(f.isDone(), "statement " + i + " was neither acknowledged nor reported failed after close");
                try {
                    f.join();
                    acknowledged.add(ids.get(i));
                } catch (CompletionException e) {
                    failed++;
                }
            }
            Map<String, Integer> copies = new HashMap<>();
            StatementCodec codec = StatementCodec.embedded();
            for (ConsumerRecord<String, byte[]> r : TopicReader.readAll(broker.bootstrapServers(), topic)) {
                copies.merge(codec.decode(r.value()).deliveryId(), 1, Integer::sum);
            }
            for (String id : acknowledged) {
                assertEquals(1, copies.getOrDefault(id, 0), "acknowledged statement " + id + " copies in the topic");
            }
            copies.forEach((id, n) -> assertEquals(1, n, id + " is in the topic more than once"));
            assertEquals(STATEMENTS, acknowledged.size() + failed);
            System.out.printf(
                    "broker restart: %d in flight during the outage; %d acknowledged, %d reported failed, %d in the topic%n",
                    inFlightDuringOutage.get(), acknowledged.size(), failed, copies.size());
        }
    }
}
