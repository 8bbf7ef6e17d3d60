package org.electorallog.schemas;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.specific.SpecificData;
import org.electorallog.schemas.avro.Statement;

/**
 * Statements written as plain JSON, for the {@code publish} command and other tools: field names as
 * in the Avro schema, bytes as base64 strings, the kind as its name, {@code statement_timestamp} as
 * milliseconds or an ISO-8601 instant, and {@code body} as an object whose {@code "type"} names the
 * body record (for example {@code "CastVote"}). {@code delivery_id} and {@code sender_public_key}
 * may be left out when the producer fills them. Unknown fields are refused. {@link #write} writes a
 * statement in this form (the producer test vectors, docs/producers.md), which {@link #parse} reads
 * back to the same statement.
 */
public final class StatementJson {
    private static final ObjectMapper JSON = new ObjectMapper();

    private StatementJson() {}

    /** A JSON statement that cannot be read; the message names the field. */
    public static final class InvalidStatementJson extends Exception {
        public InvalidStatementJson(String message) {
            super(message);
        }
    }

    public static Statement parse(String json) throws InvalidStatementJson {
        JsonNode n;
        try {
            n = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new InvalidStatementJson("not JSON: " + e.getOriginalMessage());
        }
        if (n == null || !n.isObject()) {
            throw new InvalidStatementJson("a statement must be a JSON object");
        }
        StatementCodec.trustGeneratedClasses();
        GenericRecord r = record(Statement.getClassSchema(), n, "");
        return (Statement) SpecificData.get().deepCopy(Statement.getClassSchema(), r);
    }

    private static GenericRecord record(Schema schema, JsonNode n, String path) throws InvalidStatementJson {
        GenericRecord r = new GenericData.Record(schema);
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
            String name = it.next();
            if (schema.getField(name) == null && !(name.equals("type") && !path.isEmpty())) {
                throw new InvalidStatementJson(path + name + ": unknown field (known: " + fieldNames(schema) + ")");
            }
        }
        for (Schema.Field f : schema.getFields()) {
            JsonNode v = n.get(f.name());
            String where = path + f.name();
            if (v == null || v.isNull()) {
                r.put(f.pos(), missing(f, where));
            } else {
                r.put(f.pos(), value(f.schema(), v, where));
            }
        }
        return r;
    }

    private static Object missing(Schema.Field f, String where) throws InvalidStatementJson {
        Schema s = f.schema();
        if (s.getType() == Schema.Type.UNION && s.getTypes().get(0).getType() == Schema.Type.NULL) {
            return null;
        }
        if (f.name().equals("delivery_id")) {
            return "";
        }
        if (f.name().equals("sender_public_key")) {
            return ByteBuffer.allocate(0);
        }
        throw new InvalidStatementJson(where + ": is required");
    }

    /** A union's branches but null, in order. */
    private static List<Schema> nonNullBranches(Schema union) {
        List<Schema> branches = new ArrayList<>();
        for (Schema b : union.getTypes()) {
            if (b.getType() != Schema.Type.NULL) {
                branches.add(b);
            }
        }
        return branches;
    }

    private static Object value(Schema s, JsonNode v, String where) throws InvalidStatementJson {
        switch (s.getType()) {
            case UNION: {
                List<Schema> branches = nonNullBranches(s);
                if (branches.size() == 1) {
                    return value(branches.get(0), v, where);
                }
                if (!v.isObject() || !v.hasNonNull("type")) {
                    throw new InvalidStatementJson(where + ": must be an object with a \"type\" naming one of "
                            + branches.stream().map(Schema::getName).toList());
                }
                String type = v.get("type").asText();
                for (Schema b : branches) {
                    if (b.getName().equals(type) || b.getFullName().equals(type)) {
                        return record(b, v, where + ".");
                    }
                }
                throw new InvalidStatementJson(where + ": unknown type '" + type + "', expected one of "
                        + branches.stream().map(Schema::getName).toList());
            }
            case RECORD:
                if (!v.isObject()) {
                    throw new InvalidStatementJson(where + ": must be an object");
                }
                return record(s, v, where + ".");
            case STRING:
                if (!v.isTextual()) {
                    throw new InvalidStatementJson(where + ": must be a string");
                }
                return v.asText();
            case BYTES:
                if (!v.isTextual()) {
                    throw new InvalidStatementJson(where + ": must be a base64 string");
                }
                try {
                    return ByteBuffer.wrap(Base64.getDecoder().decode(v.asText()));
                } catch (IllegalArgumentException e) {
                    throw new InvalidStatementJson(where + ": is not base64 (" + e.getMessage() + ")");
                }
            case LONG:
                if (v.isIntegralNumber() && v.canConvertToLong()) {
                    return v.asLong();
                }
                if (v.isTextual() && where.endsWith("timestamp")) {
                    try {
                        return Instant.parse(v.asText()).toEpochMilli();
                    } catch (DateTimeParseException e) {
                        throw new InvalidStatementJson(where + ": '" + v.asText() + "' is not an ISO-8601 instant");
                    }
                }
                throw new InvalidStatementJson(where + ": must be a whole number");
            case INT:
                if (v.isInt()) {
                    return v.asInt();
                }
                throw new InvalidStatementJson(where + ": must be a whole number");
            case BOOLEAN:
                if (v.isBoolean()) {
                    return v.asBoolean();
                }
                throw new InvalidStatementJson(where + ": must be true or false");
            case ENUM:
                if (!v.isTextual() || !s.getEnumSymbols().contains(v.asText())) {
                    throw new InvalidStatementJson(where + ": must be one of " + s.getEnumSymbols());
                }
                return new GenericData.EnumSymbol(s, v.asText());
            case ARRAY: {
                if (!v.isArray()) {
                    throw new InvalidStatementJson(where + ": must be an array");
                }
                List<Object> items = new ArrayList<>();
                int i = 0;
                for (JsonNode item : v) {
                    items.add(value(s.getElementType(), item, where + "[" + i++ + "]"));
                }
                return new GenericData.Array<>(s, items);
            }
            case MAP: {
                if (!v.isObject()) {
                    throw new InvalidStatementJson(where + ": must be an object");
                }
                Map<String, Object> m = new LinkedHashMap<>();
                for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    m.put(e.getKey(), value(s.getValueType(), e.getValue(), where + "." + e.getKey()));
                }
                return m;
            }
            default:
                throw new InvalidStatementJson(
                        where + ": type " + s.getType() + " is not supported in JSON statements");
        }
    }

    /**
     * {@code statement} as the JSON {@link #parse} reads: fields in schema order, nulls left out,
     * bytes in base64, the kind and other enums by name, the timestamp in milliseconds, a union of
     * several records (the body) as an object whose {@code "type"} names its record.
     */
    public static String write(IndexedRecord statement) {
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(json(statement.getSchema(), statement));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode json(Schema s, Object v) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        switch (s.getType()) {
            case UNION: {
                List<Schema> branches = nonNullBranches(s);
                if (branches.size() == 1) {
                    return json(branches.get(0), v);
                }
                Schema branch = s.getTypes().get(GenericData.get().resolveUnion(s, v));
                ObjectNode o = f.objectNode().put("type", branch.getName());
                o.setAll((ObjectNode) json(branch, v));
                return o;
            }
            case RECORD: {
                ObjectNode o = f.objectNode();
                IndexedRecord r = (IndexedRecord) v;
                for (Schema.Field field : s.getFields()) {
                    Object value = r.get(field.pos());
                    if (value != null) {
                        o.set(field.name(), json(field.schema(), value));
                    }
                }
                return o;
            }
            case STRING:
            case ENUM:
                return f.textNode(v.toString());
            case BYTES: {
                ByteBuffer b = ((ByteBuffer) v).duplicate();
                byte[] bytes = new byte[b.remaining()];
                b.get(bytes);
                return f.textNode(Base64.getEncoder().encodeToString(bytes));
            }
            case LONG:
                return f.numberNode(((Number) v).longValue());
            case INT:
                return f.numberNode(((Number) v).intValue());
            case BOOLEAN:
                return f.booleanNode((Boolean) v);
            case ARRAY: {
                ArrayNode a = f.arrayNode();
                for (Object item : (Iterable<?>) v) {
                    a.add(json(s.getElementType(), item));
                }
                return a;
            }
            case MAP: {
                ObjectNode o = f.objectNode();
                Map<String, Object> sorted = new TreeMap<>();
                ((Map<?, ?>) v).forEach((k, x) -> sorted.put(k.toString(), x));
                sorted.forEach((k, x) -> o.set(k, json(s.getValueType(), x)));
                return o;
            }
            default:
                throw new IllegalArgumentException("type " + s.getType() + " is not written in JSON statements");
        }
    }

    private static List<String> fieldNames(Schema s) {
        return s.getFields().stream().map(Schema.Field::name).toList();
    }
}
