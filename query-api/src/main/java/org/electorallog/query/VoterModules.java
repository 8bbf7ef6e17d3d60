package org.electorallog.query;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The JavaScript modules the voter page verifies ML-DSA-44 with (issue 68, decision 147):
 * {@code @noble/post-quantum}'s {@code ml-dsa.js} and the modules it imports, from the npm tarballs the
 * build fetched into {@code voter/vendor/<package>/package/} (query-api/pom.xml). Each module's bare
 * imports ({@code '@noble/hashes/sha3.js'}) are rewritten to paths relative to it, so the files load
 * from this origin as they are, under the API ({@code /voter/vendor/...}) and in a static publication
 * alike, with no import map (an inline script the page's CSP would refuse).
 */
final class VoterModules {
    /** The module the page imports, relative to {@code voter/}. */
    static final String ENTRY = "vendor/noble-post-quantum/package/ml-dsa.js";

    /** npm package name to its folder under {@code voter/vendor/}. */
    private static final Map<String, String> PACKAGES = Map.of(
            "@noble/post-quantum", "noble-post-quantum",
            "@noble/hashes", "noble-hashes",
            "@noble/curves", "noble-curves");

    private static final Pattern IMPORT = Pattern.compile("((?:import|export)[^'\";]*?from\\s*)(['\"])([^'\"]+)\\2");

    private static final Map<String, String> MODULES = load();

    private VoterModules() {}

    /** Path under {@code voter/} (for example {@code vendor/noble-hashes/package/sha3.js}) to the module's text. */
    static Map<String, String> all() {
        return MODULES;
    }

    /** Follows the imports from {@link #ENTRY}; every module the page can load, rewritten. */
    private static Map<String, String> load() {
        Map<String, String> out = new TreeMap<>();
        Deque<String> todo = new ArrayDeque<>();
        todo.add(ENTRY);
        while (!todo.isEmpty()) {
            String file = todo.pop();
            if (out.containsKey(file)) {
                continue;
            }
            String text = resource(file);
            Matcher m = IMPORT.matcher(text);
            StringBuilder rewritten = new StringBuilder();
            while (m.find()) {
                String target = resolve(file, m.group(3));
                todo.add(target);
                String relative =
                        Path.of(file).getParent().relativize(Path.of(target)).toString();
                m.appendReplacement(
                        rewritten,
                        Matcher.quoteReplacement(m.group(1)
                                + m.group(2)
                                + (relative.startsWith(".") ? relative : "./" + relative)
                                + m.group(2)));
            }
            m.appendTail(rewritten);
            out.put(file, rewritten.toString());
        }
        return Collections.unmodifiableMap(new LinkedHashMap<>(out));
    }

    /** The file a specifier in {@code from} names: relative to it, or a bare {@code @noble/...} one. */
    private static String resolve(String from, String specifier) {
        if (specifier.startsWith(".")) {
            return Path.of(from).getParent().resolve(specifier).normalize().toString();
        }
        for (Map.Entry<String, String> p : PACKAGES.entrySet()) {
            if (specifier.startsWith(p.getKey() + "/")) {
                return "vendor/" + p.getValue() + "/package/"
                        + specifier.substring(p.getKey().length() + 1);
            }
        }
        throw new IllegalStateException(from + " imports '" + specifier + "', which the build did not fetch");
    }

    private static String resource(String file) {
        try (InputStream in = VoterModules.class.getResourceAsStream("/voter/" + file)) {
            if (in == null) {
                throw new IllegalStateException("the jar has no voter/" + file + " (the build fetches it from npm)");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
