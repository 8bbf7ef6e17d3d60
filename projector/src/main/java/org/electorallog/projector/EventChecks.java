package org.electorallog.projector;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.electorallog.schemas.BadEventException;
import org.electorallog.schemas.DecodedStatement;
import org.electorallog.schemas.StatementCodec;
import org.electorallog.schemas.StatementRules;
import org.electorallog.schemas.WireFormat;

/**
 * The checks of one event of one partition, on the stream thread: its writer schema and {@link
 * StatementRules} (inside decoding), then what only the projector knows: the Kafka key, the partition the board belongs to
 * and the record timestamp; last, a statement in the committed form has its personal values opened
 * ({@link PersonalOpening}). Signatures are checked later, a whole batch at once ({@link
 * SignatureVerifier}); the sender registry when the batch is written ({@link BoardWriter}).
 */
final class EventChecks {
    private final StatementCodec codec;
    private final TopicLayout layout;
    private final int partition;
    private final PersonalOpening opening;

    EventChecks(StatementCodec codec, TopicLayout layout, int partition, PersonalOpening opening) {
        this.codec = codec;
        this.layout = layout;
        this.partition = partition;
        this.opening = opening;
    }

    /**
     * The decoded statement of a valid event, its personal values opened; {@link
     * BadEventException} with its reason otherwise.
     */
    PersonalOpening.Opened validated(String key, byte[] value, long timestamp, Headers headers)
            throws BadEventException {
        if (value == null) {
            throw new BadEventException(BadEventException.Reason.UNDECODABLE, "event has no value");
        }
        DecodedStatement st = codec.decode(value, writerSchema(headers));
        if (!st.board().equals(key)) {
            throw new BadEventException(
                    BadEventException.Reason.INVALID,
                    "Kafka key '" + StatementRules.printable(key) + "' differs from the statement's board '"
                            + st.board() + "'");
        }
        int home = layout.partitionOf(st.board());
        if (home != partition) {
            throw new BadEventException(
                    BadEventException.Reason.INVALID,
                    "board " + st.board() + " belongs to partition "
                            + home + " of " + layout.partitions()
                            + " (Kafka's default partitioner on the key); this event "
                            + "arrived on partition " + partition + ", where it would break the board's order");
        }
        Optional<StatementRules.Violation> time = StatementRules.checkRecordTimestamp(timestamp);
        if (time.isPresent()) {
            throw time.get().exception();
        }
        return opening.open(st);
    }

    /** The writer schema's fingerprint the event names (its last {@link WireFormat#WRITER_SCHEMA_HEADER}), or null. */
    static String writerSchema(Headers headers) {
        Header h = headers == null ? null : headers.lastHeader(WireFormat.WRITER_SCHEMA_HEADER);
        return h == null || h.value() == null ? null : new String(h.value(), StandardCharsets.US_ASCII);
    }
}
