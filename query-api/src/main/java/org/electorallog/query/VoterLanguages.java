package org.electorallog.query;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * The languages the voter page speaks (issue 69 item 1, docs/voter-page.md "Languages"): the
 * message catalogues shipped in the jar ({@code /voter/i18n/<tag>.json}, one a language) and the
 * {@code messages.json} the page loads, which holds those the election configures
 * (ELECTORAL_LOG_VOTER_LANGUAGES), the first one the default.
 */
public final class VoterLanguages {
    /** The catalogues shipped, the source one first. */
    public static final List<String> SHIPPED = List.of("en", "es", "fr", "ar");

    private final List<String> tags;
    private final String messages;

    private VoterLanguages(List<String> tags, String messages) {
        this.tags = tags;
        this.messages = messages;
    }

    /** Every shipped language, English the default. */
    public static VoterLanguages all() {
        return of(SHIPPED);
    }

    /**
     * The languages {@code tags}, the first the default; IllegalArgumentException names a tag with no
     * catalogue, or an empty list.
     */
    public static VoterLanguages of(List<String> tags) {
        if (tags.isEmpty()) {
            throw new IllegalArgumentException("the voter page needs at least one language; shipped: " + SHIPPED);
        }
        ObjectNode all = Responses.JSON.createObjectNode();
        all.put("default", tags.get(0));
        ObjectNode languages = all.putObject("languages");
        for (String tag : tags) {
            if (languages.has(tag)) {
                throw new IllegalArgumentException("the voter page's language '" + tag + "' is named twice");
            }
            languages.set(tag, catalogue(tag));
        }
        return new VoterLanguages(List.copyOf(tags), all.toString());
    }

    /** The shipped catalogue of {@code tag}; IllegalArgumentException if there is none. */
    public static JsonNode catalogue(String tag) {
        if (!SHIPPED.contains(tag)) {
            throw new IllegalArgumentException(
                    "the voter page has no catalogue for the language '" + tag + "'; shipped: " + SHIPPED);
        }
        try (InputStream in = VoterLanguages.class.getResourceAsStream("/voter/i18n/" + tag + ".json")) {
            if (in == null) {
                throw new IllegalStateException("the jar has no /voter/i18n/" + tag + ".json");
            }
            return Responses.JSON.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The configured language tags, the default first. */
    public List<String> tags() {
        return tags;
    }

    /** The page's messages.json: {"default": tag, "languages": {tag: catalogue, ...}}. */
    public String messagesJson() {
        return messages;
    }

    @Override
    public String toString() {
        return String.join(",", tags);
    }
}
