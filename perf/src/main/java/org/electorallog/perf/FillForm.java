package org.electorallog.perf;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.electorallog.core.Hashes;
import org.electorallog.core.SigningKey;
import org.electorallog.producer.OpeningSealer;
import org.electorallog.schemas.CanonicalStatement;
import org.electorallog.schemas.CommittedForm;
import org.electorallog.schemas.ElectionStatements;
import org.electorallog.schemas.StatementCodec;
import org.electorallog.schemas.Topics;
import org.electorallog.schemas.avro.Envelope;
import org.electorallog.schemas.avro.PersonalData;
import org.electorallog.statement.PersonalOpenings;
import org.electorallog.statement.SealingKeys;

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
    COMMITTED("perf-committed-", "fill-committed-"),
    /** The committed form signed by its sender ({@code --signed --committed}): the projector verifies and opens each. */
    SIGNED_COMMITTED("perf-signed-committed-", "fill-signed-committed-");

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
            case COMMITTED -> committed(env.keyMaker(), voters, null);
            case SIGNED_COMMITTED -> committed(env.keyMaker(), voters, SigningKey.generate());
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
                        + "under a content key wrapped with HPKE to the public half of the board's data key of the day (made by the log's key maker), sent as encoded bytes; "
                        + "the projector unwrapped each content key once, decrypted and checked every opening and stored the salts and the values no "
                        + "column holds in the record's row (records.openings, store V21)";
            case SIGNED_COMMITTED ->
                "every statement in the committed form and signed by its sender (Ed25519) over the committed "
                        + "canonical bytes before the timed window, sent as encoded bytes; the projector verified "
                        + "each signature (policy SENDER) and decrypted, checked and stored every opening (V19)";
        };
    }

    /**
     * The statements of {@code voters} in the committed form, encoded as the producer library sends
     * them; signed by {@code sender} over the committed canonical bytes when one is given.
     */
    private static List<ProducerRecord<String, byte[]>> committed(
            SealingKeys keys, Map<String, long[]> voters, SigningKey sender) {
        StatementCodec codec = StatementCodec.embedded();
        OpeningSealer sealer = new OpeningSealer(keys);
        List<ProducerRecord<String, byte[]>> out = new ArrayList<>();
        voters.forEach((board, range) -> new ElectionStatements(board, FillRun.seed(board, range[0]))
                .interleaved(range[0], range[1], s -> {
                    if (sender != null) {
                        s.setSenderPublicKey(ByteBuffer.wrap(sender.publicKey()));
                    }
                    CommittedForm.Committed c = CommittedForm.commit(s);
                    byte[] canonical = CanonicalStatement.encode(c.statement());
                    byte[] leaf = Hashes.leafHash(canonical);
                    PersonalOpenings.Sealed sealed = sealer.seal(board, s.getStatementTimestamp(), leaf, c.openings());
                    Envelope e = Envelope.newBuilder()
                            .setStatement(c.statement())
                            .setSenderSignature(sender == null ? null : ByteBuffer.wrap(sender.sign(canonical)))
                            .setPersonal(PersonalData.newBuilder()
                                    .setKeyId(sealed.keyId())
                                    .setWrappedKey(ByteBuffer.wrap(sealed.wrappedKey()))
                                    .setNonce(ByteBuffer.wrap(sealed.nonce()))
                                    .setCiphertext(ByteBuffer.wrap(sealed.ciphertext()))
                                    .build())
                            .build();
                    out.add(new ProducerRecord<>(Topics.EVENTS, board, codec.encode(e)));
                }));
        return out;
    }
}
