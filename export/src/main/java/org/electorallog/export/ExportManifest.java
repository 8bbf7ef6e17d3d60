package org.electorallog.export;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.electorallog.core.Hex;

/**
 * {@code manifest.json} beside an export's Parquet files (issue 63): what binds them to the log.
 * The checkpoint the log signed at {@code size} with the witnesses' cosignature lines (C2SP
 * signed-note, tlog-checkpoint, tlog-cosignature), the range {@code [start, end)} of the board's
 * leaves the files hold, each file with its SHA-256 and its row range, in order, and the range
 * proof (core {@code RangeProof}: the hashes of the subtrees outside the range, left to right).
 *
 * @param view     {@link #PUBLIC}: what anyone may read (in the committed form the personal fields
 *                 are their commitments); {@link #PERSONAL}: that and, in {@code openings}, the
 *                 opened values a role that may read them gets (docs/personal-data.md)
 * @param openings the personal view's openings files, one beside each records file and of the same
 *                 records; empty in the public view
 * @param proof    the range proof's hashes, 32 bytes each
 */
public record ExportManifest(
        String board,
        long start,
        long end,
        long size,
        String checkpoint,
        String view,
        List<File> files,
        List<File> openings,
        List<byte[]> proof) {
    /** The manifest's name in an export's directory. */
    public static final String NAME = "manifest.json";

    /** The format this code writes and reads. */
    public static final String FORMAT = "electoral-log export v1";

    /** The view anyone may read. */
    public static final String PUBLIC = "public";

    /** The view with the opened personal values: for the roles that may read them only. */
    public static final String PERSONAL = "personal";

    /** What the manifest of a personal view says of itself, for whoever finds the files. */
    static final String PERSONAL_NOTICE = "holds personal data (the openings files): only for a role that may read "
            + "personal values (observer, analyst, admin; docs/personal-data.md); never publish it, delete it at the "
            + "end of its retention period";

    /** One Parquet file: its name in the directory, SHA-256 of its bytes, and the leaves [first, end) it holds in order. */
    @SuppressWarnings("ArrayRecordComponent") // compared by the verifier against the file's bytes
    public record File(String name, byte[] sha256, long first, long end) {}

    public ExportManifest {
        files = List.copyOf(files);
        openings = List.copyOf(openings);
        proof = List.copyOf(proof);
    }

    /** Writes the manifest into {@code dir}. */
    public void write(Path dir) throws IOException {
        ObjectMapper json = new ObjectMapper();
        ObjectNode root = json.createObjectNode();
        root.put("format", FORMAT);
        root.put("board", board);
        root.put("start", start);
        root.put("end", end);
        root.put("size", size);
        root.put("view", view);
        if (PERSONAL.equals(view)) {
            root.put("notice", PERSONAL_NOTICE);
        }
        root.put("checkpoint", checkpoint);
        files(root.putArray("files"), files);
        if (PERSONAL.equals(view)) {
            files(root.putArray("openings"), openings);
        }
        ArrayNode p = root.putArray("range_proof");
        proof.forEach(h -> p.add(Base64.getEncoder().encodeToString(h)));
        Files.writeString(
                dir.resolve(NAME), json.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n");
    }

    private static void files(ArrayNode out, List<File> files) {
        for (File f : files) {
            out.addObject()
                    .put("name", f.name())
                    .put("sha256", Hex.encode(f.sha256()))
                    .put("first", f.first())
                    .put("end", f.end());
        }
    }

    private static List<File> files(JsonNode list) throws IOException {
        List<File> files = new ArrayList<>();
        for (JsonNode f : list) {
            files.add(new File(text(f, "name"), Hex.decode(text(f, "sha256")), number(f, "first"), number(f, "end")));
        }
        return files;
    }

    /** Reads the manifest of the export in {@code dir}; thrown when it is missing or not one. */
    public static ExportManifest read(Path dir) throws IOException {
        Path file = dir.resolve(NAME);
        if (!Files.isRegularFile(file)) {
            throw new IOException("there is no " + NAME + " in " + dir + ": not an export directory");
        }
        JsonNode root = new ObjectMapper().readTree(file.toFile());
        if (!FORMAT.equals(text(root, "format"))) {
            throw new IOException(NAME + " is of format '" + text(root, "format") + "', not '" + FORMAT + "'");
        }
        List<File> files = files(need(root, "files"));
        List<File> openings = root.has("openings") ? files(need(root, "openings")) : List.of();
        List<byte[]> proof = new ArrayList<>();
        for (JsonNode h : need(root, "range_proof")) {
            proof.add(Base64.getDecoder().decode(h.asText()));
        }
        return new ExportManifest(
                text(root, "board"),
                number(root, "start"),
                number(root, "end"),
                number(root, "size"),
                text(root, "checkpoint"),
                text(root, "view"),
                files,
                openings,
                proof);
    }

    private static JsonNode need(JsonNode n, String name) throws IOException {
        JsonNode v = n.get(name);
        if (v == null || v.isNull()) {
            throw new IOException(NAME + " lacks '" + name + "'");
        }
        return v;
    }

    private static String text(JsonNode n, String name) throws IOException {
        return need(n, name).asText();
    }

    private static long number(JsonNode n, String name) throws IOException {
        JsonNode v = need(n, name);
        if (!v.canConvertToLong()) {
            throw new IOException(NAME + "'s '" + name + "' is not a whole number");
        }
        return v.asLong();
    }
}
