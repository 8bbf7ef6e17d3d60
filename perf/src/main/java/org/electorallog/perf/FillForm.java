package org.electorallog.perf;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.electorallog.core.DataKeys;
import org.electorallog.core.Hashes;
import org.electorallog.core.PersonalOpenings;
import org.electorallog.schemas.CanonicalStatement;
import org.electorallog.schemas.CommittedForm;
import org.electorallog.schemas.ElectionStatements;
import org.electorallog.schemas.StatementCodec;
import org.electorallog.schemas.Topics;
import org.electorallog.schemas.avro.Envelope;
import org.electorallog.schemas.avro.PersonalData;
import org.electorallog.store.SqlDataKeys;

/**
 * The form of the statements {@code perf fill} publishes: as the producer library sends plain
 * statements ({@link #PLAIN}, through the library during the timed window), signed by their sender
 * ({@link #SIGNED}) or in the committed form of docs/personal-data.md ({@link #COMMITTED}). Signed and
 * committed statements are made before the timed window and sent as encoded bytes, as producers on
 * their own machines would: what is timed is Kafka and the projector.
 */
enum FillForm {
    PLAIN("perf-", "fill-"),
    SIGNED("perf-signed-", "fill-signed-"),
    COMMITTED("perf-committed-", "fill-committed-");

    /** The boards' names: this and 1, 2, ... */
    final String boardPrefix;
    /** The results file's name before the size label. */
    final String filePrefix;

    FillForm(String boardPrefix, String filePrefix) {
        this.boardPrefix = boardPrefix;
        this.filePrefix = filePrefix;
    }

    /** The events to send, made before the timed window; null for {@link #PLAIN}, which publishes through the library. */
    List<ProducerRecord<String, byte[]>> prepare(PerfEnvironment env, Map<String, long[]> voters) {
        return switch (this) {
            case PLAIN -> null;
            case SIGNED -> FillPublisher.presign(voters);
            case COMMITTED -> committed(new SqlDataKeys(env.db), voters);
        };
    }

    /** What the results say about the form. */
    String note() {
        return switch (this) {
            case PLAIN -> null;
            case SIGNED ->
                "every statement signed by its sender (Ed25519) before the timed window and sent as encoded "
                        + "bytes (as producers on their own machines would); the projector verified each "
                        + "(policy SENDER), a batch at once on "
                        + Runtime.getRuntime().availableProcessors()
                        + " threads";
            case COMMITTED ->
                "every statement in the committed form (docs/personal-data.md) before the timed window: "
                        + "each personal value committed to with a fresh salt, the openings sealed with AES-256-GCM "
                        + "under the board's data key of the day (the projection's key store), sent as encoded bytes; "
                        + "the projector decrypted and checked every opening and stored it (V19) with the record";
        };
    }

    /** The statements of {@code voters} in the committed form, encoded as the producer library sends them. */
    private static List<ProducerRecord<String, byte[]>> committed(DataKeys keys, Map<String, long[]> voters) {
        StatementCodec codec = StatementCodec.embedded();
        List<ProducerRecord<String, byte[]>> out = new ArrayList<>();
        voters.forEach((board, range) -> new ElectionStatements(board, FillRun.seed(board, range[0]))
                .interleaved(range[0], range[1], s -> {
                    CommittedForm.Committed c = CommittedForm.commit(s);
                    byte[] leaf = Hashes.leafHash(CanonicalStatement.encode(c.statement()));
                    DataKeys.DataKey key = keys.forDay(board, DataKeys.dayOf(s.getStatementTimestamp()));
                    PersonalOpenings.Sealed sealed = PersonalOpenings.seal(key.id(), key.key(), leaf, c.openings());
                    Envelope e = Envelope.newBuilder()
                            .setStatement(c.statement())
                            .setPersonal(PersonalData.newBuilder()
                                    .setKeyId(sealed.keyId())
                                    .setNonce(ByteBuffer.wrap(sealed.nonce()))
                                    .setCiphertext(ByteBuffer.wrap(sealed.ciphertext()))
                                    .build())
                            .build();
                    out.add(new ProducerRecord<>(Topics.EVENTS, board, codec.encode(e)));
                }));
        return out;
    }
}
