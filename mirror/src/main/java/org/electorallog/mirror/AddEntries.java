package org.electorallog.mirror;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.electorallog.core.Hashes;
import org.electorallog.core.TileLayout;

/**
 * The wire format of C2SP tlog-mirror's {@code add-entries} (section "add-entries", "Request
 * Body"): a header (origin, {@code upload_start}, {@code upload_end}, ticket), then the canonical
 * sequence of entry packages, each the entries of {@code [start, end)} with a uint16 length prefix,
 * a count of at most 63 and that many subtree consistency proof hashes; and the
 * {@code text/x.tlog.mirror-info} body of a 409 or 202. Pure format, no I/O beyond the streams given.
 */
public final class AddEntries {
    private AddEntries() {}

    /** Content type of a 409 or 202 body. */
    public static final String INFO_TYPE = "text/x.tlog.mirror-info";
    /** At most this many proof hashes in a package. */
    public static final int MAX_PROOF_HASHES = 63;
    /** Packages a client sends in one request (tlog-mirror: "at most 32 entry packages"). */
    public static final int PACKAGES_PER_REQUEST = 32;

    /**
     * The request header. This mirror issues no tickets (it keeps its recent pending checkpoints
     * itself), so a ticket sent is read and not used, and a client sends an empty one.
     */
    public record Header(String origin, long uploadStart, long uploadEnd) {}

    /** One package: the leaf interval it covers, the subtree it proves, its entries and proof. */
    public record Package(long subtreeStart, long start, long end, List<byte[]> entries, List<byte[]> proof) {}

    /** A 409's or 202's body: a valid pending size, the mirror's next entry and its ticket. */
    public record Info(long pendingSize, long nextEntry, String ticketBase64) {
        /** An answer with no ticket. */
        public Info(long pendingSize, long nextEntry) {
            this(pendingSize, nextEntry, "");
        }

        /** The three lines, each ending in a newline. */
        public String format() {
            return pendingSize + "\n" + nextEntry + "\n" + ticketBase64 + "\n";
        }

        /** Parses the three lines. */
        public static Info parse(String body) {
            String[] lines = body.split("\n", -1);
            if (lines.length < 3) {
                throw new IllegalArgumentException("a mirror-info body has three lines, got: " + body);
            }
            Base64.getDecoder().decode(lines[2].strip()); // refuses a ticket that is not base64
            return new Info(Long.parseLong(lines[0].strip()), Long.parseLong(lines[1].strip()), lines[2].strip());
        }
    }

    /** Reads the header; an EOFException when the body ends inside it. */
    public static Header readHeader(DataInputStream in) throws IOException {
        int originSize = in.readUnsignedShort();
        byte[] origin = in.readNBytes(originSize);
        if (origin.length != originSize) {
            throw new EOFException("the body ends inside the origin");
        }
        long start = in.readLong();
        long end = in.readLong();
        int ticketSize = in.readUnsignedShort();
        byte[] ticket = in.readNBytes(ticketSize);
        if (ticket.length != ticketSize) {
            throw new EOFException("the body ends inside the ticket");
        }
        return new Header(new String(origin, StandardCharsets.UTF_8), start, end);
    }

    /**
     * The canonical sequence's packages for {@code [uploadStart, uploadEnd)}: {@code [start, end)}
     * per package, aligned at multiples of 256, with the subtree start each proof is for.
     */
    public static List<long[]> canonical(long uploadStart, long uploadEnd) {
        List<long[]> out = new ArrayList<>();
        if (uploadStart == uploadEnd) {
            return out;
        }
        long w = TileLayout.TILE_WIDTH;
        long roundedStart = uploadStart / w * w;
        long roundedEnd = (uploadEnd + w - 1) / w * w;
        for (long s = roundedStart; s < roundedEnd; s += w) {
            out.add(new long[] {s, Math.max(uploadStart, s), Math.min(uploadEnd, s + w)});
        }
        return out;
    }

    /**
     * Reads one package's entries and proof for {@code [start, end)}; an EOFException when the body
     * ends inside it (the mirror then keeps the packages before it).
     */
    public static Package readPackage(DataInputStream in, long subtreeStart, long start, long end) throws IOException {
        List<byte[]> entries = new ArrayList<>((int) (end - start));
        for (long i = start; i < end; i++) {
            int size = in.readUnsignedShort();
            byte[] entry = in.readNBytes(size);
            if (entry.length != size) {
                throw new EOFException("the body ends inside entry " + i);
            }
            entries.add(entry);
        }
        int hashes = in.readUnsignedByte();
        if (hashes > MAX_PROOF_HASHES) {
            throw new IOException("a package's proof has at most " + MAX_PROOF_HASHES + " hashes, got " + hashes);
        }
        List<byte[]> proof = new ArrayList<>(hashes);
        for (int i = 0; i < hashes; i++) {
            byte[] h = in.readNBytes(Hashes.HASH_SIZE);
            if (h.length != Hashes.HASH_SIZE) {
                throw new EOFException("the body ends inside a proof hash");
            }
            proof.add(h);
        }
        return new Package(subtreeStart, start, end, entries, proof);
    }

    /** Writes a request's header. */
    public static void writeHeader(DataOutputStream out, Header h) throws IOException {
        byte[] origin = h.origin().getBytes(StandardCharsets.UTF_8);
        out.writeShort(origin.length);
        out.write(origin);
        out.writeLong(h.uploadStart());
        out.writeLong(h.uploadEnd());
        out.writeShort(0); // no ticket
    }

    /** Writes one package. */
    public static void writePackage(DataOutputStream out, Package p) throws IOException {
        if (p.proof().size() > MAX_PROOF_HASHES) {
            throw new IllegalArgumentException("a package's proof has at most " + MAX_PROOF_HASHES + " hashes");
        }
        for (byte[] e : p.entries()) {
            out.writeShort(e.length);
            out.write(e);
        }
        out.writeByte(p.proof().size());
        for (byte[] h : p.proof()) {
            out.write(h);
        }
    }

    /** A whole request body, uncompressed. */
    public static byte[] request(Header h, List<Package> packages) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            writeHeader(out, h);
            for (Package p : packages) {
                writePackage(out, p);
            }
        } catch (IOException e) {
            throw new IllegalStateException("writing to memory", e);
        }
        return bytes.toByteArray();
    }
}
