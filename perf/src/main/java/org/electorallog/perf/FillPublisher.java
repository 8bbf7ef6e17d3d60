package org.electorallog.perf;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.electorallog.core.SigningKey;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.schemas.CanonicalStatement;
import org.electorallog.schemas.ElectionStatements;
import org.electorallog.schemas.StatementCodec;
import org.electorallog.schemas.Topics;
import org.electorallog.schemas.avro.Envelope;

/**
 * The publisher of {@code perf fill}: reference-shaped statements through the producer library, or
 * signed ahead and sent as encoded bytes ({@code --signed}), each passing the window's {@link Gate}.
 */
final class FillPublisher {
    private FillPublisher() {}

    /** The publisher's allowance: it waits once it has published what the current window allows. */
    static final class Gate {
        private long allowed;
        private long published;

        synchronized void pass() {
            while (published >= allowed) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("the publisher was interrupted", e);
                }
            }
            published++;
        }

        synchronized void allow(long statements) {
            allowed = statements;
            notifyAll();
        }
    }

    /** The reference-shaped statements of {@code voters} (board to voter range) through the producer library. */
    static void publish(PerfEnvironment env, Map<String, long[]> voters, Gate gate, AtomicReference<String> filling) {
        try (ElectoralLogProducer producer =
                ElectoralLogProducer.builder(env.stack.kafkaBootstrap()).build()) {
            // boards one after the other; within a board 20,000 voters interleaved (ElectionStatements.interleaved)
            voters.forEach((board, range) -> new ElectionStatements(board, FillRun.seed(board, range[0]))
                    .interleaved(range[0], range[1], s -> {
                        gate.pass();
                        filling.set(board);
                        producer.publish(s);
                    }));
            producer.flush();
        }
    }

    /**
     * The statements signed by one sender key (Ed25519 over the canonical bytes, the statement naming
     * its key) and encoded as the producer library would send them (Confluent wire format, key = board).
     */
    static List<ProducerRecord<String, byte[]>> presign(Map<String, long[]> voters) {
        SigningKey key = SigningKey.generate();
        StatementCodec codec = StatementCodec.embedded();
        List<ProducerRecord<String, byte[]>> out = new ArrayList<>();
        voters.forEach((board, range) -> new ElectionStatements(board, FillRun.seed(board, range[0]))
                .interleaved(range[0], range[1], s -> {
                    s.setSenderPublicKey(ByteBuffer.wrap(key.publicKey()));
                    byte[] canonical = CanonicalStatement.encode(s);
                    Envelope e = Envelope.newBuilder()
                            .setStatement(s)
                            .setSenderSignature(ByteBuffer.wrap(key.sign(canonical)))
                            .build();
                    out.add(ElectoralLogProducer.event(Topics.EVENTS, board, codec.encode(e)));
                }));
        return out;
    }

    /** The presigned records through a plain Kafka producer with the library's settings. */
    static void publishSigned(PerfEnvironment env, List<ProducerRecord<String, byte[]>> records, Gate gate) {
        try (KafkaProducer<String, byte[]> kafka = new KafkaProducer<>(
                ElectoralLogProducer.defaults(env.stack.kafkaBootstrap()),
                new StringSerializer(),
                new ByteArraySerializer())) {
            for (ProducerRecord<String, byte[]> r : records) {
                gate.pass();
                var unused = kafka.send(r);
            }
            kafka.flush();
        }
    }
}
