package org.electorallog.schemas;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.util.ClassSecurityValidator;
import org.electorallog.schemas.avro.Envelope;
import org.electorallog.schemas.avro.Statement;

/**
 * Serializes envelopes in the Confluent wire format and decodes them again.
 *
 * <p>Decoding reads with the writer's own schema (found by the ID in the header) into generic
 * records: the projector never depends on the reader's schema version, and the canonical bytes it
 * derives are the same whatever version of this module reads them.
 */
public final class StatementCodec {
    static {
        trustGeneratedClasses();
    }

    /**
     * Avro 1.12 refuses to instantiate generated classes from packages it does not trust (even when
     * a builder copies an enum default). Call this once before using the generated classes, or start
     * the JVM with {@code -Dorg.apache.avro.SERIALIZABLE_PACKAGES=org.electorallog.schemas.avro}.
     */
    public static synchronized void trustGeneratedClasses() {
        if (!trusted) {
            ClassSecurityValidator.setGlobal(ClassSecurityValidator.composite(
                    ClassSecurityValidator.getGlobal(),
                    ClassSecurityValidator.builder()
                            .add(Envelope.class.getPackageName())
                            .build()));
            trusted = true;
        }
    }

    private static boolean trusted;

    private final SchemaRegistry registry;
    private final String subject;
    private final Map<Integer, GenericDatumReader<GenericRecord>> readers = new ConcurrentHashMap<>();
    /** Readers of schemas named by fingerprint where the ID names another here (decision 140), by fingerprint. */
    private final Map<String, Resolved> byFingerprint = new ConcurrentHashMap<>();
    /** The fingerprints of the schemas the IDs name in this codec's registry. */
    private final Map<Integer, String> fingerprints = new ConcurrentHashMap<>();

    private final boolean writerSchemaRequired;
    private final ThreadLocal<SpecificDatumWriter<Envelope>> writer =
            ThreadLocal.withInitial(() -> new SpecificDatumWriter<>(Envelope.class));
    private volatile int envelopeId = -1;

    public StatementCodec(SchemaRegistry registry, String subject) {
        this(registry, subject, false);
    }

    /**
     * A codec that, with {@code writerSchemaRequired}, refuses an event without the {@link
     * WireFormat#WRITER_SCHEMA_HEADER} (reason {@code SCHEMA_MISMATCH}) instead of trusting its ID alone.
     */
    public StatementCodec(SchemaRegistry registry, String subject, boolean writerSchemaRequired) {
        this.writerSchemaRequired = writerSchemaRequired;
        this.registry = registry;
        this.subject = subject;
    }

    /** The registry this codec reads writer schemas from. */
    public SchemaRegistry registry() {
        return registry;
    }

    /** A codec on the embedded registry and the default events subject. */
    public static StatementCodec embedded() {
        return new StatementCodec(EmbeddedSchemaRegistry.instance(), Topics.EVENTS_SUBJECT);
    }

    /** The wire-format bytes of an envelope. */
    public byte[] encode(Envelope envelope) {
        int id = envelopeId;
        if (id < 0) {
            id = registry.idOf(subject, Envelope.getClassSchema());
            envelopeId = id;
        }
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream(1024);
            BinaryEncoder enc = EncoderFactory.get().directBinaryEncoder(out, null);
            writer.get().write(envelope, enc);
            enc.flush();
            return WireFormat.frame(id, out.toByteArray());
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("envelope cannot be encoded: " + e.getMessage(), e);
        }
    }

    /** The fingerprint of the envelope schema this codec writes: the value of its events' {@link WireFormat#WRITER_SCHEMA_HEADER}. */
    public static String envelopeFingerprint() {
        return ENVELOPE_FINGERPRINT;
    }

    private static final String ENVELOPE_FINGERPRINT = EmbeddedSchemaRegistry.fingerprint(Envelope.getClassSchema());

    /** A reader and the ID this build knows its schema by. */
    private record Resolved(int id, GenericDatumReader<GenericRecord> reader) {}

    /** The canonical bytes of a (generated) statement, as the projector will derive them. */
    public static byte[] canonical(Statement statement) {
        return CanonicalStatement.encode(statement);
    }

    /**
     * Decodes wire-format bytes; every failure of the event is a {@link BadEventException} with its
     * reason, whatever the writer schema and the bytes: a RuntimeException of Avro or of our rules,
     * and the StackOverflowError of a value nested deep in a recursive writer schema (issue 41 item
     * 5). Only a registry that cannot be reached throws otherwise: that is not the event's fault,
     * and the event is read again once the registry answers.
     */
    public DecodedStatement decode(byte[] message) throws BadEventException {
        return decode(message, null);
    }

    /**
     * As {@link #decode(byte[])}, with the writer schema's fingerprint the event carried in its
     * {@link WireFormat#WRITER_SCHEMA_HEADER} (null: none). When the schema the ID names in this
     * codec's registry has another fingerprint, the event was framed with another registry's ID:
     * it is read with the schema of that fingerprint when this build knows one (the embedded
     * manifest holds every envelope version; the record keeps that schema's manifest ID), else
     * dead-lettered {@code SCHEMA_MISMATCH}. Never read with a schema its producer did not write.
     */
    public DecodedStatement decode(byte[] message, String writerFingerprint) throws BadEventException {
        int id = WireFormat.schemaId(message);
        if (writerFingerprint == null && writerSchemaRequired) {
            throw new BadEventException(
                    BadEventException.Reason.SCHEMA_MISMATCH,
                    "the event does not name its writer schema (Kafka header " + WireFormat.WRITER_SCHEMA_HEADER
                            + "), which this projector requires (ELECTORAL_LOG_WRITER_SCHEMA=REQUIRED): its ID " + id
                            + " alone could be another registry's (docs/producers.md)");
        }
        if (writerFingerprint != null && !writerFingerprint.equals(fingerprintOf(id))) {
            Resolved r = resolveByFingerprint(id, writerFingerprint);
            return read(message, r.id(), r.reader());
        }
        GenericDatumReader<GenericRecord> reader = readers.get(id);
        if (reader == null) {
            Schema schema;
            try {
                schema = registry.byId(id);
            } catch (SchemaRegistry.UnknownSchemaException e) {
                throw new BadEventException(BadEventException.Reason.UNKNOWN_SCHEMA, e.getMessage());
            }
            try {
                reader = new GenericDatumReader<>(schema);
            } catch (RuntimeException e) {
                throw new BadEventException(
                        BadEventException.Reason.UNKNOWN_SCHEMA, "schema " + id + " cannot read events: " + e, e);
            }
            readers.put(id, reader);
        }
        return read(message, id, reader);
    }

    /** The fingerprint of the schema ID {@code id} names in this codec's registry; null when it names none. */
    private String fingerprintOf(int id) throws BadEventException {
        String fp = fingerprints.get(id);
        if (fp == null) {
            try {
                fp = EmbeddedSchemaRegistry.fingerprint(registry.byId(id)); // an unreachable registry: thrown on
            } catch (SchemaRegistry.UnknownSchemaException e) {
                return null;
            }
            fingerprints.put(id, fp);
        }
        return fp;
    }

    /** The reader of the schema with fingerprint {@code fp}, which ID {@code id} does not name here. */
    private Resolved resolveByFingerprint(int id, String fp) throws BadEventException {
        Resolved r = byFingerprint.get(fp);
        if (r != null) {
            return r;
        }
        Optional<EmbeddedSchemaRegistry.Entry> known =
                EmbeddedSchemaRegistry.instance().byFingerprint(fp);
        if (known.isEmpty()) {
            String here = fingerprintOf(id);
            throw new BadEventException(
                    here == null ? BadEventException.Reason.UNKNOWN_SCHEMA : BadEventException.Reason.SCHEMA_MISMATCH,
                    "the event was written with the schema of fingerprint " + shortened(fp) + " under ID " + id
                            + ", but ID " + id + " names "
                            + (here == null ? "no schema" : "the schema " + shortened(here))
                            + " in this projector's registry and this build knows no schema of that fingerprint: the "
                            + "producer uses another registry (docs/operations.md \"An external schema registry\")");
        }
        r = new Resolved(known.get().id(), new GenericDatumReader<>(known.get().schema()));
        byFingerprint.put(fp, r);
        return r;
    }

    private static String shortened(String fp) {
        return fp.length() > 16 ? fp.substring(0, 16) + "..." : fp;
    }

    private static DecodedStatement read(byte[] message, int id, GenericDatumReader<GenericRecord> reader)
            throws BadEventException {
        try {
            BinaryDecoder dec = DecoderFactory.get()
                    .binaryDecoder(message, WireFormat.HEADER_SIZE, message.length - WireFormat.HEADER_SIZE, null);
            GenericRecord envelope = reader.read(null, dec);
            if (!dec.isEnd()) {
                throw new BadEventException(
                        BadEventException.Reason.UNDECODABLE, "message has bytes after the Avro record");
            }
            return DecodedStatement.of(id, envelope);
        } catch (IOException | RuntimeException e) {
            throw new BadEventException(
                    BadEventException.Reason.UNDECODABLE, "Avro decoding with schema " + id + " failed: " + e, e);
        } catch (StackOverflowError e) {
            // a value nested deeper than a thread's stack: the event's fault, and the stack is unwound here
            throw new BadEventException(
                    BadEventException.Reason.UNDECODABLE,
                    "Avro decoding with schema " + id + " failed: a value is nested too deep (StackOverflowError)");
        }
    }

    /** Decodes wire-format bytes into the generated class (for clients and tests). */
    public Envelope decodeSpecific(byte[] message) throws BadEventException {
        int id = WireFormat.schemaId(message);
        try {
            Schema writerSchema = registry.byId(id);
            SpecificDatumReader<Envelope> r = new SpecificDatumReader<>(writerSchema, Envelope.getClassSchema());
            return r.read(
                    null,
                    DecoderFactory.get()
                            .binaryDecoder(
                                    message, WireFormat.HEADER_SIZE, message.length - WireFormat.HEADER_SIZE, null));
        } catch (SchemaRegistry.UnknownSchemaException e) {
            throw new BadEventException(BadEventException.Reason.UNKNOWN_SCHEMA, e.getMessage());
        } catch (IOException | RuntimeException e) {
            throw new BadEventException(BadEventException.Reason.UNDECODABLE, "Avro decoding failed: " + e, e);
        }
    }
}
