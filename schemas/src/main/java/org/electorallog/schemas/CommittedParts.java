package org.electorallog.schemas;

import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.electorallog.statement.PersonalOpenings;

/**
 * What a statement in the committed form (format 2, docs/personal-data.md) carries about its
 * personal values: the commitment of each personal field that has a value, by path (in the
 * canonical bytes), and the sealed openings of its envelope (outside them; null when the envelope
 * has none). The projector opens them ({@code PersonalOpening}); {@link CommittedForm#check}
 * has already made sure the commitments are well formed.
 */
public record CommittedParts(Map<String, byte[]> commitments, PersonalOpenings.Sealed sealed) {
    public CommittedParts {
        Map<String, byte[]> copy = new TreeMap<>();
        commitments.forEach((k, v) -> copy.put(k, v.clone()));
        commitments = Collections.unmodifiableMap(copy);
    }

    /** The committed form's parts of a decoded envelope; null for a format 1 statement. */
    static CommittedParts of(GenericRecord statement, GenericRecord envelope) {
        if (field(statement, "format_version") == null) {
            return null;
        }
        Map<String, byte[]> commitments = new TreeMap<>();
        if (field(statement, "commitments") instanceof Map<?, ?> map) {
            map.forEach((k, v) -> commitments.put(k.toString(), bytes(v)));
        }
        PersonalOpenings.Sealed sealed = null;
        if (field(envelope, "personal") instanceof GenericRecord p) {
            sealed = new PersonalOpenings.Sealed(
                    String.valueOf(field(p, "key_id")),
                    bytes(field(p, "wrapped_key")),
                    bytes(field(p, "nonce")),
                    bytes(field(p, "ciphertext")));
        }
        return new CommittedParts(commitments, sealed);
    }

    /** Whether the statement committed to a value at {@code path} (a value that is there, even when it cannot be read). */
    public boolean commits(String path) {
        return commitments.containsKey(path);
    }

    private static Object field(GenericRecord r, String name) {
        Schema.Field f = r.getSchema().getField(name);
        return f == null ? null : r.get(f.pos());
    }

    private static byte[] bytes(Object v) {
        if (v instanceof ByteBuffer b) {
            ByteBuffer d = b.duplicate();
            byte[] out = new byte[d.remaining()];
            d.get(out);
            return out;
        }
        return new byte[0];
    }
}
