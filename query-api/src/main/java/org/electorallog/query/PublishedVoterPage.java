package org.electorallog.query;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The voter page as files for a static publication ({@code publish-tiles --voter-page}, issue 45
 * item 1): the same scripts and style as {@code GET /voter}, and an {@code index.html} whose body says
 * that the boards' files are beside it ({@code data-tiles}), so the page builds a record's proof from
 * the published checkpoint and tiles (tiles.js) with no query API. Its paths are under {@code
 * /<dir>/}, the directory the publisher puts it in.
 */
public final class PublishedVoterPage {
    private static final List<String> FILES =
            List.of("i18n.js", "voter.js", "personal.js", "heads.js", "tiles.js", "pq.js", "voter.css");

    private PublishedVoterPage() {}

    /**
     * File name to bytes, for the directory {@code dir} at the publication's root, speaking {@code
     * languages} (its messages.json).
     */
    public static Map<String, byte[]> files(String dir, VoterLanguages languages) {
        return files(dir, languages, "<body data-tiles=\"\">");
    }

    /**
     * The page as a mirror (C2SP tlog-mirror) serves it at {@code /<dir>/}: each board's files are
     * its copy at {@code /<hex SHA-256 of originPrefix and the board's name>/} (tiles.js).
     */
    public static Map<String, byte[]> forMirror(String dir, VoterLanguages languages, String originPrefix) {
        String attribute = originPrefix
                .replace("&", "&amp;")
                .replace("\"", "&quot;")
                .replace("<", "&lt;")
                .replace(">", "&gt;");
        return files(dir, languages, "<body data-tiles=\"\" data-origin-prefix=\"" + attribute + "\">");
    }

    private static Map<String, byte[]> files(String dir, VoterLanguages languages, String body) {
        Map<String, byte[]> out = new LinkedHashMap<>();
        String html =
                resource("voter.html").replace("\"/voter/", "\"/" + dir + "/").replace("<body>", body);
        out.put("index.html", html.getBytes(StandardCharsets.UTF_8));
        for (String f : FILES) {
            out.put(f, resource(f).getBytes(StandardCharsets.UTF_8));
        }
        out.put("messages.json", languages.messagesJson().getBytes(StandardCharsets.UTF_8));
        // the ML-DSA-44 modules pq.js imports, at the same paths relative to the page (decision 147)
        VoterModules.all().forEach((path, text) -> out.put(path, text.getBytes(StandardCharsets.UTF_8)));
        return out;
    }

    private static String resource(String name) {
        try (InputStream in = PublishedVoterPage.class.getResourceAsStream("/voter/" + name)) {
            if (in == null) {
                throw new IllegalStateException("the jar has no /voter/" + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
