package org.electorallog.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.electorallog.schemas.avro.StatementKind;
import org.junit.jupiter.api.Test;

/**
 * The voter page's message catalogues (issue 69 item 1, docs/voter-page.md "Languages"): every
 * shipped catalogue has exactly the keys the English source has, with the same placeholders; a
 * plural message decides by the source's number and has only forms of its language (CLDR plural
 * categories, as the browser's Intl.PluralRules selects them), always "other"; every key the page's
 * code and HTML use exists, and every statement kind has a name.
 */
class VoterCataloguesTest {
    /** CLDR plural categories of cardinal numbers per shipped language (unicode.org/cldr, plurals.xml). */
    static final Map<String, Set<String>> PLURAL_FORMS = Map.of(
            "en", Set.of("one", "other"),
            "es", Set.of("one", "many", "other"),
            "fr", Set.of("one", "many", "other"),
            "ar", Set.of("zero", "one", "two", "few", "many", "other"));

    static final Pattern PLACEHOLDER = Pattern.compile("\\{([A-Za-z]+)\\}");

    @Test
    void everyCatalogueHasTheSourcesKeysAndPlaceholders() {
        JsonNode source = VoterLanguages.catalogue("en").get("messages");
        List<String> problems = new ArrayList<>();
        for (String tag : VoterLanguages.SHIPPED) {
            JsonNode c = VoterLanguages.catalogue(tag);
            assertFalse(c.path("language").asText().isBlank(), tag + " names its language");
            assertTrue(Set.of("ltr", "rtl").contains(c.path("dir").asText()), tag + " says its direction");
            assertFalse(c.path("corrections").asText().isBlank(), tag + " says who may correct it");
            JsonNode messages = c.get("messages");
            for (String key : names(source)) {
                if (!messages.has(key)) {
                    problems.add(tag + " lacks " + key);
                } else if (!placeholders(messages.get(key)).equals(placeholders(source.get(key)))) {
                    problems.add(tag + " " + key + " has placeholders " + placeholders(messages.get(key))
                            + ", the source " + placeholders(source.get(key)));
                }
            }
            for (String key : names(messages)) {
                if (!source.has(key)) {
                    problems.add(tag + " has " + key + ", which the source lacks");
                }
                JsonNode m = messages.get(key);
                if (m.isObject()) {
                    Set<String> forms = new TreeSet<>(names(m));
                    forms.remove("plural");
                    if (!forms.contains("other") || !PLURAL_FORMS.get(tag).containsAll(forms)) {
                        problems.add(tag + " " + key + " has plural forms " + forms + "; " + tag + " has "
                                + PLURAL_FORMS.get(tag) + ", and \"other\" is required");
                    }
                    if (!m.path("plural")
                            .asText()
                            .equals(source.path(key).path("plural").asText())) {
                        problems.add(tag + " " + key + " decides by \""
                                + m.path("plural").asText() + "\", the source by \""
                                + source.path(key).path("plural").asText() + "\"");
                    }
                } else if (!m.isTextual()) {
                    problems.add(tag + " " + key + " is neither text nor plural forms");
                }
            }
        }
        assertEquals(List.of(), problems);
    }

    @Test
    void everyKeyThePageUsesExistsAndEveryKindHasAName() throws IOException {
        JsonNode source = VoterLanguages.catalogue("en").get("messages");
        Set<String> used = new TreeSet<>();
        Pattern call = Pattern.compile("\\b(?:msg|t|NotVerified|render)\\(\\s*'([a-zA-Z.]+)'");
        for (String script : List.of("i18n.js", "voter.js", "personal.js", "heads.js", "tiles.js")) {
            Matcher m = call.matcher(resource(script));
            while (m.find()) {
                if (!m.group(1).endsWith(".")) { // a prefix the code completes: checked below
                    used.add(m.group(1));
                }
            }
        }
        Matcher html =
                Pattern.compile("data-i18n(?:-placeholder)?=\"([a-zA-Z.]+)\"").matcher(resource("voter.html"));
        while (html.find()) {
            used.add(html.group(1));
        }
        // the keys the code builds from a prefix
        for (StatementKind kind : StatementKind.values()) {
            used.add("kind." + kind.name());
        }
        for (String state : List.of("verified", "unwitnessed", "failed")) {
            used.add("verdict." + state);
        }
        for (String source2 : List.of("pinned", "server", "typed", "none")) {
            used.add("keys.from." + source2);
        }
        for (String how : List.of("cosigned", "signed")) {
            for (String key : List.of(
                    "step.included.",
                    "step.included.published.",
                    "err.recordNotIn.",
                    "err.ballotNotIn.",
                    "err.rootMismatch.",
                    "err.tiles.root.")) {
                used.add(key + how);
            }
        }
        assertTrue(used.size() > 100, "found the page's keys: " + used);
        List<String> missing = used.stream().filter(k -> !source.has(k)).toList();
        assertEquals(List.of(), missing, "keys the page uses that the catalogue lacks");
    }

    @Test
    void messagesJsonHoldsTheConfiguredLanguagesTheFirstTheDefault() throws IOException {
        JsonNode all =
                Responses.JSON.readTree(VoterLanguages.of(List.of("ar", "fr")).messagesJson());
        assertEquals("ar", all.get("default").asText());
        assertEquals(List.of("ar", "fr"), names(all.get("languages")));
        assertEquals("rtl", all.get("languages").get("ar").get("dir").asText());
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(
                IllegalArgumentException.class, () -> VoterLanguages.of(List.of("en", "xx")));
        assertTrue(e.getMessage().contains("no catalogue for the language 'xx'"), e.getMessage());
    }

    static List<String> names(JsonNode object) {
        List<String> out = new ArrayList<>();
        Iterator<String> it = object.fieldNames();
        it.forEachRemaining(out::add);
        return out;
    }

    /** The placeholders of a message, over all its plural forms. */
    static Set<String> placeholders(JsonNode message) {
        Set<String> out = new TreeSet<>();
        List<String> texts = new ArrayList<>();
        if (message.isTextual()) {
            texts.add(message.asText());
        } else {
            message.fields().forEachRemaining(e -> {
                if (!e.getKey().equals("plural")) {
                    texts.add(e.getValue().asText());
                }
            });
        }
        for (String text : texts) {
            Matcher m = PLACEHOLDER.matcher(text);
            while (m.find()) {
                out.add(m.group(1));
            }
        }
        return out;
    }

    static String resource(String name) throws IOException {
        try (InputStream in = VoterCataloguesTest.class.getResourceAsStream("/voter/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
