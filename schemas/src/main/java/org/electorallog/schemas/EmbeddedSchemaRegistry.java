package org.electorallog.schemas;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.security.NoSuchAlgorithmException;
import java.util.Collections;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;

/**
 * The schema registry built into this module: IDs are fixed by the append-only manifest
 * {@code org/electorallog/schemas/registry/manifest.txt}, one line per schema version
 * ({@code <id> <subject> <version> <file> <sha256>}, the last being the SHA-256 of the schema's
 * parsing canonical form, so a file changed under an existing ID fails at load). A schema not in the
 * manifest gets no ID.
 */
public final class EmbeddedSchemaRegistry implements SchemaRegistry {
    private static final String BASE = "/org/electorallog/schemas/registry/";
    private static final EmbeddedSchemaRegistry INSTANCE = new EmbeddedSchemaRegistry();

    /** One manifest line. */
    public record Entry(int id, String subject, int version, String file, Schema schema) {}

    /** SHA-256 (hex) of a schema's parsing canonical form: what the manifest pins. */
    public static String fingerprint(Schema schema) {
        try {
            return HexFormat.of().formatHex(SchemaNormalization.parsingFingerprint("SHA-256", schema));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private final Map<Integer, Entry> byId;
    private final Map<String, Entry> byFingerprint = new HashMap<>();

    private EmbeddedSchemaRegistry() {
        this.byId = Collections.unmodifiableMap(load());
        byId.values().forEach(e -> byFingerprint.putIfAbsent(fingerprint(e.schema()), e));
    }

    public static EmbeddedSchemaRegistry instance() {
        return INSTANCE;
    }

    /** Every manifest entry, in manifest order. */
    public Map<Integer, Entry> entries() {
        return byId;
    }

    /** The manifest entry whose schema has this fingerprint ({@link #fingerprint}), if this build knows one. */
    public Optional<Entry> byFingerprint(String fingerprint) {
        return Optional.ofNullable(byFingerprint.get(fingerprint));
    }

    @Override
    public int idOf(String subject, Schema schema) {
        long fp = SchemaNormalization.parsingFingerprint64(schema);
        for (Entry e : byId.values()) {
            if (e.subject().equals(subject) && SchemaNormalization.parsingFingerprint64(e.schema()) == fp) {
                return e.id();
            }
        }
        throw new IllegalStateException("schema " + schema.getFullName() + " under subject " + subject
                + " is not in the embedded manifest; add it as a new line (see schemas/README.md)");
    }

    @Override
    public Schema byId(int id) throws UnknownSchemaException {
        Entry e = byId.get(id);
        if (e == null) {
            throw new UnknownSchemaException(id, "not in the embedded manifest");
        }
        return e.schema();
    }

    private static Map<Integer, Entry> load() {
        Map<Integer, Entry> out = new LinkedHashMap<>();
        try (InputStream in = open("manifest.txt");
                BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            int lineNo = 0;
            while ((line = r.readLine()) != null) {
                lineNo++;
                line = line.strip();
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                String[] f = line.split("\\s+");
                if (f.length != 5) {
                    throw new IllegalStateException(
                            "schema manifest line " + lineNo + " must be '<id> <subject> <version> <file> <sha256>'");
                }
                int id = Integer.parseInt(f[0]);
                if (out.containsKey(id)) {
                    throw new IllegalStateException("schema manifest reuses ID " + id + " on line " + lineNo);
                }
                Schema schema;
                try (InputStream s = open(f[3])) {
                    schema = new Schema.Parser().parse(s);
                }
                if (!fingerprint(schema).equals(f[4])) {
                    throw new IllegalStateException(
                            "schema " + f[3] + " under ID " + id + " has changed (fingerprint " + fingerprint(schema)
                                    + ", manifest pins " + f[4] + "): an ID's schema never changes; add a new ID");
                }
                out.put(id, new Entry(id, f[1], Integer.parseInt(f[2]), f[3], schema));
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the embedded schema manifest", e);
        }
        return out;
    }

    private static InputStream open(String name) throws IOException {
        InputStream in = EmbeddedSchemaRegistry.class.getResourceAsStream(BASE + name);
        if (in == null) {
            throw new IOException("missing resource " + BASE + name);
        }
        return in;
    }
}
