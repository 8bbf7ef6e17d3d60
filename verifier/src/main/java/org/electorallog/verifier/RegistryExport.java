package org.electorallog.verifier;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The sender registry as {@code electoral-log senders export} writes it (JSON Lines, one grant a
 * line: {@code public_key} base64, {@code board} or {@code *}, {@code kinds} or {@code [*]},
 * {@code valid_from} and {@code valid_until} ISO 8601), read by {@code verify-board} to say whether
 * each record's sender key was allowed its kind on its board at its Kafka time, as the projector
 * decided (docs/security.md "Writers: the sender registry").
 */
public final class RegistryExport {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ANY = "*";

    /** One grant: the key may write {@code kinds} on {@code board} in [from, until). */
    record Grant(String board, List<String> kinds, long from, long until) {
        boolean allows(String boardName, String kind, long millis) {
            return (board.equals(ANY) || board.equals(boardName))
                    && (kinds.contains(ANY) || kinds.contains(kind))
                    && from <= millis
                    && millis < until;
        }
    }

    private final Map<ByteBuffer, List<Grant>> grants;

    private RegistryExport(Map<ByteBuffer, List<Grant>> grants) {
        this.grants = grants;
    }

    /** Reads an export; a line that is not a grant is an IllegalArgumentException naming it. */
    public static RegistryExport read(Path file) throws IOException {
        Map<ByteBuffer, List<Grant>> grants = new HashMap<>();
        int n = 0;
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            n++;
            if (line.isBlank()) {
                continue;
            }
            try {
                JsonNode g = JSON.readTree(line);
                List<String> kinds = new ArrayList<>();
                g.required("kinds").forEach(k -> kinds.add(k.asText()));
                JsonNode until = g.path("valid_until");
                grants.computeIfAbsent(
                                ByteBuffer.wrap(Base64.getDecoder()
                                        .decode(g.required("public_key").asText())),
                                k -> new ArrayList<>())
                        .add(new Grant(
                                g.required("board").asText(),
                                List.copyOf(kinds),
                                Instant.parse(g.required("valid_from").asText()).toEpochMilli(),
                                until.isMissingNode() || until.isNull()
                                        ? Long.MAX_VALUE
                                        : Instant.parse(until.asText()).toEpochMilli()));
            } catch (IOException | RuntimeException e) {
                throw new IllegalArgumentException(file + " line " + n
                        + " is not a sender grant of `electoral-log senders export`: " + e.getMessage());
            }
        }
        return new RegistryExport(grants);
    }

    /**
     * Null when a grant of {@code key} allows {@code kind} on {@code board} at {@code millis} (the
     * record's Kafka time); otherwise why not.
     */
    public String refusal(byte[] key, String board, String kind, long millis) {
        List<Grant> of = grants.get(ByteBuffer.wrap(key));
        if (of == null) {
            return "its sender key is not in the registry";
        }
        for (Grant g : of) {
            if (g.allows(board, kind, millis)) {
                return null;
            }
        }
        return "no grant of its sender key allows " + kind + " on " + board + " at " + Instant.ofEpochMilli(millis);
    }
}
