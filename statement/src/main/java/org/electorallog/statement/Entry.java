package org.electorallog.statement;

import java.util.Arrays;
import org.electorallog.core.Hashes;

/**
 * One log entry: a statement's canonical bytes ({@link CanonicalWriter}), their leaf hash
 * {@code SHA-256(0x00 || entry)} (RFC 6962 section 2.1, {@link Hashes#leafHash}) and the statement's
 * kind code ({@link StatementKinds}). Computed once where the statement is checked (the producer
 * before it signs, the projector when it decodes an event) and carried to the row, so that no later
 * step hashes the bytes again (issue 62 item 2, after Tessera's {@code entry.go}).
 *
 * <p>Immutable: the accessors hand out the arrays themselves, which no holder writes to.
 */
public final class Entry {
    private final byte[] canonical;
    private final byte[] leafHash;
    private final short kind;

    private Entry(byte[] canonical, byte[] leafHash, short kind) {
        this.canonical = canonical;
        this.leafHash = leafHash;
        this.kind = kind;
    }

    /**
     * The entry of canonical bytes of a statement of kind {@code kindName}; IllegalArgumentException
     * when this version has no code for the kind or the bytes are longer than an entry may be.
     */
    public static Entry of(byte[] canonical, String kindName) {
        int code = StatementKinds.code(kindName);
        if (code < 0) {
            throw new IllegalArgumentException("unknown statement kind " + kindName);
        }
        return of(canonical, (short) code);
    }

    /** The entry of canonical bytes of a statement of kind {@code kind} (a {@link StatementKinds} code). */
    public static Entry of(byte[] canonical, short kind) {
        StatementKinds.name(kind);
        if (canonical.length > CanonicalWriter.MAX_BYTES) {
            throw new IllegalArgumentException(
                    "canonical bytes are " + canonical.length + " bytes, more than " + CanonicalWriter.MAX_BYTES);
        }
        return new Entry(canonical, Hashes.leafHash(canonical), kind);
    }

    /** The canonical statement bytes: what is logged, signed and served. */
    public byte[] canonical() {
        return canonical;
    }

    /** {@code SHA-256(0x00 || canonical)}: the entry's leaf in its board's tree. */
    public byte[] leafHash() {
        return leafHash;
    }

    /** The kind's code, as records and counters store it. */
    public short kind() {
        return kind;
    }

    /** The kind's name. */
    public String kindName() {
        return StatementKinds.name(kind);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Entry e && Arrays.equals(canonical, e.canonical);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(leafHash);
    }

    @Override
    public String toString() {
        return "Entry[" + kindName() + ", " + canonical.length + " bytes]";
    }
}
