package org.electorallog.schemas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.electorallog.schemas.avro.Envelope;
import org.junit.jupiter.api.Test;

/**
 * The evolution policy of schemas/README.md: every historical version in the manifest is read by the
 * current reader, the oldest reader reads a current event, and every pair of versions is both
 * backward and forward compatible. Also pins the manifest: IDs unique, files unchanged (checked at
 * load), the current schema registered.
 */
class SchemaEvolutionTest {
    final EmbeddedSchemaRegistry registry = EmbeddedSchemaRegistry.instance();

    @Test
    void everyHistoricalVersionDecodesWithTheCurrentReader() throws Exception {
        StatementCodec codec = StatementCodec.embedded();
        for (EmbeddedSchemaRegistry.Entry e : registry.entries().values()) {
            GenericRecord sample = sample(e.schema());
            byte[] wire = WireFormat.frame(e.id(), encode(e.schema(), sample));
            DecodedStatement d = codec.decode(wire);
            assertEquals("sample-board", d.board(), "version " + e.version());
            Envelope specific = codec.decodeSpecific(wire);
            assertEquals("sample-board", specific.getStatement().getBoard());
            // canonical bytes do not depend on which schema version read the statement
            assertEquals(
                    ByteBuffer.wrap(CanonicalStatement.encode((GenericRecord) sample.get("statement"))),
                    ByteBuffer.wrap(d.entry().canonical()));
        }
    }

    @Test
    void theOldestReaderDecodesACurrentEvent() throws Exception {
        EmbeddedSchemaRegistry.Entry oldest =
                registry.entries().values().iterator().next();
        Schema current = Envelope.getClassSchema();
        byte[] avro = encode(current, sample(current));
        GenericDatumReader<GenericRecord> reader = new GenericDatumReader<>(current, oldest.schema());
        GenericRecord read = reader.read(null, DecoderFactory.get().binaryDecoder(avro, null));
        assertEquals(
                "sample-board",
                ((GenericRecord) read.get("statement")).get("board").toString());
    }

    @Test
    void everyPairOfVersionsIsMutuallyCompatible() {
        List<Schema> all = new ArrayList<>();
        registry.entries().values().forEach(e -> all.add(e.schema()));
        all.add(Envelope.getClassSchema());
        for (Schema a : all) {
            for (Schema b : all) {
                assertEquals(
                        SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE,
                        SchemaCompatibility.checkReaderWriterCompatibility(a, b).getType());
            }
        }
    }

    @Test
    void theManifestIsAppendOnlyAndHoldsTheCurrentSchema() {
        Map<Integer, EmbeddedSchemaRegistry.Entry> entries = registry.entries();
        int previous = 0;
        for (EmbeddedSchemaRegistry.Entry e : entries.values()) {
            assertTrue(e.id() > previous, "IDs rise in the manifest and are never reused");
            previous = e.id();
        }
        int current = registry.idOf(Topics.EVENTS_SUBJECT, Envelope.getClassSchema());
        assertEquals(previous, current, "the current schema is the manifest's last entry");
        assertNotNull(entries.get(1));
        assertEquals(
                "043249458c923c29346ec6aeeb790b72d4f6b5b104fbe8d54028e30b53a9e8eb",
                EmbeddedSchemaRegistry.fingerprint(entries.get(1).schema()),
                "schema 1 is frozen");
    }

    static byte[] encode(Schema schema, GenericRecord r) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder enc = EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<GenericRecord>(schema).write(r, enc);
        enc.flush();
        return out.toByteArray();
    }

    /**
     * A record of {@code schema} with every field filled (first non-null union branch), except the
     * format's two fields: a format 1 statement, valid for the rules (the committed form has its own
     * test, CommittedFormTest).
     */
    static GenericRecord sample(Schema schema) {
        GenericRecord r = new GenericData.Record(schema);
        for (Schema.Field f : schema.getFields()) {
            boolean format = f.name().equals("format_version") || f.name().equals("commitments");
            r.put(f.pos(), format ? null : value(f.name(), f.schema()));
        }
        return r;
    }

    static Object value(String name, Schema s) {
        return switch (s.getType()) {
            case UNION ->
                value(
                        name,
                        s.getTypes().stream()
                                .filter(t -> t.getType() != Schema.Type.NULL)
                                .findFirst()
                                .orElseThrow());
            case RECORD -> sample(s);
            case STRING -> name.equals("board") ? "sample-board" : "v-" + name;
            case BYTES -> ByteBuffer.wrap(new byte[name.endsWith("_signature") ? 64 : 32]);
            case LONG -> 1_767_225_600_000L;
            case INT -> 7;
            case BOOLEAN -> true;
            case ENUM -> new GenericData.EnumSymbol(s, s.getEnumSymbols().get(1));
            case ARRAY -> new GenericData.Array<>(s, List.of(value(name, s.getElementType())));
            case MAP -> Map.of("k", value(name, s.getValueType()));
            default -> null;
        };
    }
}
