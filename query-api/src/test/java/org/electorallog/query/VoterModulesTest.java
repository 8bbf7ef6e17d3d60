package org.electorallog.query;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The voter page's ML-DSA-44 modules (decision 147): the build fetched them, every import of every
 * module is a relative path to another module served beside it (no bare {@code @noble/...} specifier
 * is left for the browser, which would need an import map), and the entry module is among them.
 */
class VoterModulesTest {
    private static final Pattern FROM = Pattern.compile("from\\s*(['\"])([^'\"]+)\\1");

    @Test
    void everyImportIsARelativePathToAModuleServedBesideIt() {
        Map<String, String> modules = VoterModules.all();
        assertTrue(modules.containsKey(VoterModules.ENTRY), modules.keySet().toString());
        assertTrue(
                modules.containsKey("vendor/noble-hashes/package/sha3.js"),
                modules.keySet().toString());
        assertTrue(modules.get(VoterModules.ENTRY).contains("ml_dsa44"), "the entry exports ML-DSA-44");
        for (Map.Entry<String, String> m : modules.entrySet()) {
            Matcher f = FROM.matcher(m.getValue());
            while (f.find()) {
                String specifier = f.group(2);
                assertFalse(specifier.startsWith("@"), m.getKey() + " still imports " + specifier);
                String target = Path.of(m.getKey())
                        .getParent()
                        .resolve(specifier)
                        .normalize()
                        .toString();
                assertTrue(modules.containsKey(target), m.getKey() + " imports " + target + ", which is not served");
            }
        }
    }
}
