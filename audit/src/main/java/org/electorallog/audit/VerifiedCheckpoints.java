package org.electorallog.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Base64;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The largest checkpoint the incremental verifier verified per board (size and root), kept in a file
 * outside the projection, so that a board that later shrinks below it, or whose tree at that size is
 * another one (a fork), is reported even after the verifier restarts: the projection cannot vouch
 * for itself. The file is replaced atomically on each change; null path = memory only.
 */
final class VerifiedCheckpoints {
    /** A verified tree size and its root. */
    record Verified(long size, String root) {}

    private static final ObjectMapper JSON = new ObjectMapper();
    private final Path file;
    private final Map<String, Verified> boards = new ConcurrentHashMap<>();

    VerifiedCheckpoints(Path file) {
        this.file = file;
        if (file != null && Files.exists(file)) {
            try {
                JsonNode root = JSON.readTree(file.toFile());
                for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    boards.put(
                            e.getKey(),
                            new Verified(
                                    e.getValue().get("size").asLong(),
                                    e.getValue().get("root").asText()));
                }
            } catch (IOException | RuntimeException e) {
                throw new IllegalStateException(
                        "the verifier's memory " + file + " cannot be read (" + e.getMessage()
                                + "); restore it from a backup: without it a rollback of the projection goes unnoticed",
                        e);
            }
        }
    }

    Verified get(String board) {
        return boards.get(board);
    }

    /** Remembers a verified checkpoint if it is larger than the one remembered. */
    void remember(String board, long size, byte[] root) {
        Verified old = boards.get(board);
        if (old != null && old.size() >= size) {
            return;
        }
        boards.put(board, new Verified(size, Base64.getEncoder().encodeToString(root)));
        save();
    }

    private synchronized void save() {
        if (file == null) {
            return;
        }
        ObjectNode root = JSON.createObjectNode();
        new TreeMap<>(boards)
                .forEach((b, v) -> root.putObject(b).put("size", v.size()).put("root", v.root()));
        try {
            Path parent = file.toAbsolutePath().getParent();
            Files.createDirectories(parent);
            Path tmp = Files.createTempFile(parent, ".verified-", ".json");
            JSON.writerWithDefaultPrettyPrinter().writeValue(tmp.toFile(), root);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the verifier's memory " + file, e);
        }
    }
}
