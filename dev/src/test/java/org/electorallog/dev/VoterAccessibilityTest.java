package org.electorallog.dev;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.electorallog.core.NoteSigner;
import org.electorallog.infra.SharedStack;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.query.VoterLanguages;
import org.electorallog.schemas.ElectionStatements;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;

/**
 * The voter page in every shipped language, in a real headless Chromium (issue 69 items 1 and 2,
 * docs/voter-page.md): a browser asking for Spanish or Arabic gets the page in that language and
 * direction; Deque's axe-core finds no serious or critical WCAG 2.x A/AA violation in any state of
 * the page (the form, signing in, verified, unwitnessed, refused) in any language, on a phone-sized
 * and a desktop window; and a keyboard alone goes through the whole check, the result announced.
 * Each state's axe findings of every impact go to target/voter-page/axe.json.
 */
class VoterAccessibilityTest {
    static final Path SHOTS = Path.of("target/voter-page");
    static final String BOARD = "voter-a11y-" + Long.toString(System.nanoTime(), 36);
    static final int VOTES = 5;
    /** A phone (the size of a common 6.1" one, CSS pixels) and a desktop window. */
    static final Map<String, Dimension> WINDOWS =
            Map.of("phone", new Dimension(390, 844), "desktop", new Dimension(1280, 900));

    static DevEnvironment env;

    @BeforeAll
    static void start() throws Exception {
        env = DevEnvironment.start(
                SharedStack.get(),
                false,
                Path.of("target/stack/voter-a11y"),
                0,
                NoteSigner.generate("voter-a11y.electoral-log.local"));
        try (ElectoralLogProducer producer =
                ElectoralLogProducer.create(SharedStack.get().kafkaBootstrap())) {
            ElectionStatements votes = new ElectionStatements(BOARD, 13);
            for (int i = 0; i < VOTES; i++) {
                producer.publish(votes.vote("a11y-voter-" + i, 1_000 + i)).get();
            }
        }
        VoterPageTest.awaitWitnessed(env, BOARD, VOTES);
    }

    @AfterAll
    static void stop() {
        if (env != null) {
            env.close();
        }
    }

    /** The catalogue's message as WebDriver reads it from the page (no-break spaces as spaces). */
    static String message(String language, String key) {
        return VoterLanguages.catalogue(language)
                .get("messages")
                .get(key)
                .asText()
                .replace('\u00a0', ' ')
                .replace('\u202f', ' ');
    }

    static String attribute(WebDriver driver, String script) {
        return String.valueOf(((JavascriptExecutor) driver).executeScript("return " + script));
    }

    /** The page's result: state, then the verdict heading's text. */
    static String[] runCheck(VoterBrowser b) throws InterruptedException {
        b.driver.findElement(By.id("go")).click();
        WebElement result = b.driver.findElement(By.id("result"));
        b.until(() -> result.getDomAttribute("data-state") != null && result.isDisplayed(), "a result");
        return new String[] {
            result.getDomAttribute("data-state"),
            b.driver.findElement(By.id("verdict")).getText()
        };
    }

    @Test
    void aBrowserAskingForSpanishOrArabicGetsThePageInThatLanguageAndDirection() throws Exception {
        for (String asked : List.of("es-ES,es", "ar-EG,ar,en")) {
            String language = asked.substring(0, 2);
            try (VoterBrowser b = VoterBrowser.open(SHOTS, asked)) {
                b.openPage(env.api().baseUrl() + "/voter?board=" + BOARD + "&record=1");
                assertEquals(language, attribute(b.driver, "document.documentElement.lang"));
                assertEquals(
                        language.equals("ar") ? "rtl" : "ltr", attribute(b.driver, "document.documentElement.dir"));
                assertEquals(
                        message(language, "page.title"),
                        b.driver.findElement(By.tagName("h1")).getText());
                assertEquals(message(language, "page.title"), b.driver.getTitle());
                assertEquals(language, b.driver.findElement(By.id("language")).getDomProperty("value"));
                String[] r = runCheck(b);
                b.shot("language-" + language + "-verified");
                assertEquals("verified", r[0]);
                assertEquals(message(language, "verdict.verified"), r[1]);
                // right to left: the button sits at the inline start, the right; keys stay left to right
                Map<String, Double> x = new LinkedHashMap<>();
                for (String id : List.of("go", "check")) {
                    WebElement e = b.driver.findElement(By.id(id));
                    x.put(id + ".left", (double) e.getRect().getX());
                    x.put(
                            id + ".right",
                            (double) e.getRect().getX() + e.getRect().getWidth());
                }
                if (language.equals("ar")) {
                    assertTrue(
                            x.get("go.right") > x.get("check.right") - 40
                                    && x.get("go.left") > x.get("check.left") + 40,
                            x.toString());
                } else {
                    assertTrue(x.get("go.left") < x.get("check.left") + 40, x.toString());
                }
                assertEquals(
                        "ltr", attribute(b.driver, "getComputedStyle(document.getElementById('log-keys')).direction"));
                // the steps name the log key isolated (bdi), so it reads left to right in Arabic too
                assertTrue(
                        b.driver.findElements(By.cssSelector("#steps bdi")).stream()
                                .anyMatch(e -> e.getText().startsWith("voter-a11y.electoral-log.local+")),
                        b.driver.findElement(By.id("steps")).getText());
            }
        }
    }

    @Test
    void theSwitchChangesTheLanguageOfTheResultToo() throws Exception {
        try (VoterBrowser b = VoterBrowser.open(SHOTS, "en-US,en")) {
            b.openPage(env.api().baseUrl() + "/voter?board=" + BOARD + "&record=2");
            assertEquals("en", attribute(b.driver, "document.documentElement.lang"));
            assertEquals(message("en", "verdict.verified"), runCheck(b)[1]);
            b.driver.findElement(By.cssSelector("#language option[value=fr]")).click();
            b.until(() -> "fr".equals(attribute(b.driver, "document.documentElement.lang")), "French");
            assertEquals(
                    message("fr", "verdict.verified"),
                    b.driver.findElement(By.id("verdict")).getText());
            assertTrue(b.driver.getCurrentUrl().contains("lang=fr"), b.driver.getCurrentUrl());
            assertTrue(
                    b.driver.findElement(By.id("steps")).getText().contains("Clés utilisées"),
                    b.driver.findElement(By.id("steps")).getText());
        }
    }

    @Test
    void everyStateInEveryLanguageHasNoSeriousOrCriticalViolation() throws Exception {
        String logKey = URLEncoder.encode(env.signer().verifierKey(), StandardCharsets.UTF_8);
        Map<String, Object> report = new LinkedHashMap<>();
        List<String> serious = new ArrayList<>();
        try (VoterBrowser b = VoterBrowser.open(SHOTS, "en-US,en")) {
            for (String language : VoterLanguages.SHIPPED) {
                for (Map.Entry<String, Dimension> window : WINDOWS.entrySet()) {
                    b.driver.manage().window().setSize(window.getValue());
                    String base = env.api().baseUrl() + "/voter?lang=" + language + "&board=" + BOARD;
                    String where = language + "-" + window.getKey();

                    b.openPage(base + "&record=1");
                    serious.addAll(b.accessibilityProblems(where + "-form", report));
                    b.driver.findElement(By.tagName("summary")).click();
                    serious.addAll(b.accessibilityProblems(where + "-sign-in", report));
                    assertEquals("verified", runCheck(b)[0]);
                    serious.addAll(b.accessibilityProblems(where + "-verified", report));

                    b.openPage(base + "&record=2#log_key=" + logKey + "&quorum=0");
                    assertEquals("unwitnessed", runCheck(b)[0]);
                    serious.addAll(b.accessibilityProblems(where + "-unwitnessed", report));

                    b.openPage(base + "&record=" + (VOTES + 10));
                    assertEquals("failed", runCheck(b)[0]);
                    serious.addAll(b.accessibilityProblems(where + "-refused", report));
                }
            }
        }
        Files.createDirectories(SHOTS);
        new com.fasterxml.jackson.databind.ObjectMapper()
                .writerWithDefaultPrettyPrinter()
                .writeValue(SHOTS.resolve("axe.json").toFile(), report);
        assertEquals(40, report.size(), "every state, language and window was checked");
        assertEquals(List.of(), serious, "serious or critical accessibility violations (target/voter-page/axe.json)");
    }

    /** The check itself finds a violation when there is one: a field without a label, put in the page. */
    @Test
    void theCheckFindsAFieldWithoutALabel() throws Exception {
        try (VoterBrowser b = VoterBrowser.open(SHOTS, "en-US,en")) {
            b.openPage(env.api().baseUrl() + "/voter");
            ((JavascriptExecutor) b.driver)
                    .executeScript("const i = document.createElement('input'); i.id = 'unlabelled';"
                            + "document.getElementById('check').appendChild(i);");
            List<String> found = b.accessibilityProblems("en-unlabelled-field", new LinkedHashMap<>());
            assertTrue(
                    found.stream().anyMatch(f -> f.contains(": label (critical)") && f.contains("#unlabelled")),
                    found.toString());
        }
    }

    /**
     * With the keyboard alone: Tab from the top reaches the language switch, the form's fields, the
     * sign-in section (opened with Enter) and the button; Enter checks; the focus then moves to the
     * result and the status region (role=status, announced by screen readers) says the verdict.
     */
    @Test
    void theKeyboardAloneGoesThroughTheWholeCheckAndTheResultIsAnnounced() throws Exception {
        try (VoterBrowser b = VoterBrowser.open(SHOTS, "en-US,en")) {
            b.openPage(env.api().baseUrl() + "/voter");
            Actions keys = new Actions(b.driver);
            List<String> visited = new ArrayList<>();
            boolean opened = false;
            for (int i = 0; i < 30 && !visited.contains("go"); i++) {
                keys.sendKeys(Keys.TAB).perform();
                WebElement active = b.driver.switchTo().activeElement();
                String id = active.getTagName().equals("summary") ? "summary" : active.getDomAttribute("id");
                visited.add(id);
                if ("board".equals(id)) {
                    keys.sendKeys(BOARD).perform();
                } else if ("receipt".equals(id)) {
                    keys.sendKeys("3").perform();
                } else if ("summary".equals(id) && !opened) {
                    keys.sendKeys(Keys.ENTER).perform();
                    opened = true;
                }
            }
            assertEquals(
                    List.of(
                            "language",
                            "board",
                            "receipt",
                            "summary",
                            "token",
                            "election",
                            "log-keys",
                            "witness-keys",
                            "quorum",
                            "go"),
                    visited);
            keys.sendKeys(Keys.ENTER).perform();
            WebElement result = b.driver.findElement(By.id("result"));
            b.until(() -> "verified".equals(result.getDomAttribute("data-state")), "verified");
            b.shot("keyboard-verified");
            assertEquals("result", b.driver.switchTo().activeElement().getDomAttribute("id"));
            WebElement status = b.driver.findElement(By.id("status"));
            assertEquals("status", status.getDomAttribute("role"));
            assertEquals(message("en", "verdict.verified"), status.getText());
            assertEquals("verdict", result.getDomAttribute("aria-labelledby"));
        }
    }
}
