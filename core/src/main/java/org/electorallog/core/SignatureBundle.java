package org.electorallog.core;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The statement signatures of the records of one entry bundle, served beside it at
 * {@code signatures/<N>[.p/<W>]} (same N and W as C2SP tlog-tiles {@code tile/entries/<N>[.p/<W>]}).
 * Not a C2SP format: the entries (canonical statement bytes) are what the leaves commit to, and
 * the signatures over them travel in the envelope, so a verifier outside the operator needs them
 * from here (docs/witnesses.md "Verifying a whole board"). One item per record, in entry order:
 *
 * <pre>
 * item  = flags created [sender] [system]
 * flags = uint8: bit 0 a sender signature follows, bit 1 a system signature follows
 * created = int64 big-endian: the record's Kafka timestamp in milliseconds (the time the sender
 *           registry's grants are compared with)
 * sender, system = 64 bytes each: Ed25519 signatures over the entry (RFC 8032)
 * </pre>
 */
public final class SignatureBundle {
    /** Length of an Ed25519 signature. */
    public static final int SIGNATURE_BYTES = 64;

    private SignatureBundle() {}

    /** One record's signatures; either may be null (the event carried none). */
    @SuppressWarnings("ArrayRecordComponent") // bytes on the wire, never compared as records
    public record Signatures(long createdMillis, byte[] sender, byte[] system) {
        public Signatures {
            check(sender, "sender");
            check(system, "system");
        }

        private static void check(byte[] signature, String which) {
            if (signature != null && signature.length != SIGNATURE_BYTES) {
                throw new IllegalArgumentException(
                        "a " + which + " signature is 64 bytes (Ed25519), got " + signature.length);
            }
        }
    }

    public static byte[] encode(List<Signatures> items) {
        if (items.size() > TileLayout.TILE_WIDTH) {
            throw new IllegalArgumentException("a signature bundle holds at most 256 items, got " + items.size());
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(items.size() * (9 + 2 * SIGNATURE_BYTES));
        for (Signatures s : items) {
            out.write((s.sender() != null ? 1 : 0) | (s.system() != null ? 2 : 0));
            out.writeBytes(ByteBuffer.allocate(8).putLong(s.createdMillis()).array());
            if (s.sender() != null) {
                out.writeBytes(s.sender());
            }
            if (s.system() != null) {
                out.writeBytes(s.system());
            }
        }
        return out.toByteArray();
    }

    /** Decodes a bundle strictly: unknown flags or a truncated item are errors naming the offset. */
    public static List<Signatures> decode(byte[] bundle) throws ProofException {
        List<Signatures> out = new ArrayList<>();
        ByteBuffer b = ByteBuffer.wrap(bundle);
        while (b.hasRemaining()) {
            int at = b.position();
            int flags = b.get() & 0xFF;
            if ((flags & ~3) != 0) {
                throw new ProofException(
                        "signature bundle item " + out.size() + " has unknown flags " + flags + " at byte " + at);
            }
            int need = 8 + ((flags & 1) != 0 ? SIGNATURE_BYTES : 0) + ((flags & 2) != 0 ? SIGNATURE_BYTES : 0);
            if (b.remaining() < need) {
                throw new ProofException("signature bundle truncated: item " + out.size() + " needs " + need
                        + " bytes at byte " + b.position() + ", only " + b.remaining() + " left");
            }
            long created = b.getLong();
            byte[] sender = (flags & 1) != 0 ? take(b) : null;
            byte[] system = (flags & 2) != 0 ? take(b) : null;
            out.add(new Signatures(created, sender, system));
            if (out.size() > TileLayout.TILE_WIDTH) {
                throw new ProofException("signature bundle holds more than 256 items");
            }
        }
        return out;
    }

    private static byte[] take(ByteBuffer b) {
        byte[] s = new byte[SIGNATURE_BYTES];
        b.get(s);
        return s;
    }
}
