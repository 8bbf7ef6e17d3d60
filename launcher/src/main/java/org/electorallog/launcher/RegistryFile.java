package org.electorallog.launcher;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.electorallog.store.SenderGrant;

/**
 * The sender registry as a file (JSON Lines, one grant a line, keys base64, times ISO 8601): what
 * {@code senders export} writes and {@code rebuild --registry} reads, so that a projection rebuilt
 * without the live database applies the same grants.
 */
final class RegistryFile {
    private static final ObjectMapper JSON =
            new ObjectMapper().setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);

    private RegistryFile() {}

    /** One line. */
    record Line(
            long grantId,
            String publicKey,
            String senderName,
            String board,
            List<String> kinds,
            String validFrom,
            String validUntil,
            String created,
            String createdBy,
            String revoked,
            String revokedBy,
            String revocationReason) {}

    static void write(Path file, List<SenderGrant> grants) throws IOException {
        StringBuilder out = new StringBuilder();
        for (SenderGrant g : grants) {
            out.append(JSON.writeValueAsString(new Line(
                            g.grantId(),
                            Base64.getEncoder().encodeToString(g.publicKey()),
                            g.senderName(),
                            g.board(),
                            g.kinds(),
                            text(g.validFrom()),
                            text(g.validUntil()),
                            text(g.created()),
                            g.createdBy(),
                            text(g.revoked()),
                            g.revokedBy(),
                            g.revocationReason())))
                    .append('\n');
        }
        Files.writeString(file, out.toString(), StandardCharsets.UTF_8);
    }

    static List<SenderGrant> read(Path file) throws IOException {
        List<SenderGrant> out = new ArrayList<>();
        int n = 0;
        for (String s : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            n++;
            if (s.isBlank()) {
                continue;
            }
            try {
                Line l = JSON.readValue(s, Line.class);
                out.add(new SenderGrant(
                        l.grantId(),
                        Base64.getDecoder().decode(l.publicKey()),
                        l.senderName(),
                        l.board(),
                        l.kinds(),
                        instant(l.validFrom()),
                        instant(l.validUntil()),
                        instant(l.created()),
                        l.createdBy(),
                        instant(l.revoked()),
                        l.revokedBy(),
                        l.revocationReason()));
            } catch (IOException | RuntimeException e) {
                throw new IllegalArgumentException(file + " line " + n + " is not a sender grant: " + e.getMessage());
            }
        }
        return out;
    }

    private static String text(Instant t) {
        return t == null ? null : t.toString();
    }

    private static Instant instant(String s) {
        return s == null ? null : Instant.parse(s);
    }
}
