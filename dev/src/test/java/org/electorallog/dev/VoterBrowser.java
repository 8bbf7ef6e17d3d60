package org.electorallog.dev;

import com.deque.html.axecore.results.Results;
import com.deque.html.axecore.results.Rule;
import com.deque.html.axecore.selenium.AxeBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.electorallog.testkit.Poll;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * A real headless Chromium driving the voter page (Debian's chromium and chromium-driver; .ci/run
 * installs them): opens the page, runs the check and reads the result, saving a screenshot of each.
 */
final class VoterBrowser implements AutoCloseable {
    final WebDriver driver;
    private final Path shots;

    private VoterBrowser(WebDriver driver, Path shots) {
        this.driver = driver;
        this.shots = shots;
    }

    /** Starts Chromium; screenshots go to {@code shots}. */
    static VoterBrowser open(Path shots) throws Exception {
        return open(shots, null);
    }

    /**
     * Starts Chromium asking for {@code acceptLanguages} (its Accept-Language and navigator.languages,
     * for example "es-ES,es"; null: the browser's own); screenshots go to {@code shots}.
     */
    static VoterBrowser open(Path shots, String acceptLanguages) throws Exception {
        Path chromium = Path.of(System.getProperty("electoral-log.chromium", "/usr/bin/chromium"));
        Path driver = Path.of(System.getProperty("electoral-log.chromedriver", "/usr/bin/chromedriver"));
        if (!Files.isExecutable(chromium) || !Files.isExecutable(driver)) {
            throw new IllegalStateException("the browser tests need " + chromium + " and " + driver
                    + ": apt-get install chromium chromium-driver (.ci/run does it when they are missing)");
        }
        Files.createDirectories(shots);
        ChromeOptions options = new ChromeOptions()
                .setBinary(chromium.toString())
                .addArguments(
                        "--headless=new",
                        "--no-sandbox", // the tests run as root
                        "--disable-dev-shm-usage",
                        "--window-size=1000,1400",
                        "--user-data-dir="
                                + Files.createTempDirectory("chromium").toAbsolutePath());
        if (acceptLanguages != null) {
            options.addArguments("--lang=" + acceptLanguages.split(",")[0]);
            options.setExperimentalOption("prefs", java.util.Map.of("intl.accept_languages", acceptLanguages));
        }
        return new VoterBrowser(
                new ChromeDriver(
                        new ChromeDriverService.Builder()
                                .usingDriverExecutable(driver.toFile())
                                .usingAnyFreePort()
                                .build(),
                        options),
                shots);
    }

    /** Opens {@code <baseUrl>/voter?<query>}, runs the check and returns the result's state and text; saves a screenshot. */
    String[] check(String baseUrl, String query, String shot, String token) throws Exception {
        return checkAt(baseUrl + "/voter?" + query, shot, token);
    }

    /** Opens the page at {@code url} (a published copy, say), runs the check and returns the result's state and text. */
    String[] checkAt(String url, String shot, String token) throws Exception {
        driver.get(url);
        until(() -> "true".equals(driver.findElement(By.tagName("body")).getDomAttribute("data-ready")), "page ready");
        if (token != null) {
            driver.findElement(By.tagName("details")).click();
            driver.findElement(By.id("token")).sendKeys(token);
        }
        driver.findElement(By.id("go")).click();
        WebElement result = driver.findElement(By.id("result"));
        until(() -> result.getDomAttribute("data-state") != null && result.isDisplayed(), "a result");
        Files.move(
                ((ChromeDriver) driver).getScreenshotAs(OutputType.FILE).toPath(),
                shots.resolve(shot + ".png"),
                StandardCopyOption.REPLACE_EXISTING);
        return new String[] {result.getDomAttribute("data-state"), result.getText()};
    }

    /** axe-core's tags of the WCAG 2.0, 2.1 and 2.2 A and AA success criteria. */
    static final List<String> WCAG_AA = List.of("wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa");

    /**
     * Runs Deque's axe-core with the WCAG A/AA rules on the page as it is (saving a screenshot
     * "axe-<where>"); returns its serious and critical violations, and records every violation of
     * any impact, and the number of rules passed, into {@code report} under {@code where}.
     */
    List<String> accessibilityProblems(String where, Map<String, Object> report) throws Exception {
        shot("axe-" + where);
        Results results = new AxeBuilder().withTags(WCAG_AA).analyze(driver);
        if (results.isErrored()) {
            throw new AssertionError("axe-core failed on " + where + ": " + results.getErrorMessage());
        }
        if (results.getPasses().size() <= 10) {
            throw new AssertionError(where + ": axe ran " + results.getPasses().size() + " rules only");
        }
        List<String> found = new ArrayList<>();
        List<Map<String, Object>> all = new ArrayList<>();
        for (Rule r : results.getViolations()) {
            all.add(Map.of(
                    "rule",
                    r.getId(),
                    "impact",
                    String.valueOf(r.getImpact()),
                    "nodes",
                    r.getNodes().size()));
            if ("serious".equals(r.getImpact()) || "critical".equals(r.getImpact())) {
                found.add(where + ": " + r.getId() + " (" + r.getImpact() + "): " + r.getHelp() + " at "
                        + r.getNodes().stream()
                                .map(n -> String.valueOf(n.getTarget()))
                                .toList());
            }
        }
        report.put(
                where, Map.of("violations", all, "passes", results.getPasses().size()));
        return found;
    }

    /** Saves a screenshot of the page as it is. */
    void shot(String name) throws Exception {
        Files.move(
                ((ChromeDriver) driver).getScreenshotAs(OutputType.FILE).toPath(),
                shots.resolve(name + ".png"),
                StandardCopyOption.REPLACE_EXISTING);
    }

    /** Opens {@code url} and waits until the page's script is ready (its languages loaded). */
    void openPage(String url) throws InterruptedException {
        driver.get(url);
        until(() -> "true".equals(driver.findElement(By.tagName("body")).getDomAttribute("data-ready")), "page ready");
    }

    /** Polls the page until the condition holds (30 s at most): the page's own state is the condition. */
    void until(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
        try {
            Poll.until(Duration.ofSeconds(30), what, condition::getAsBoolean);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + ": " + driver.getPageSource(), e);
        }
    }

    @Override
    public void close() {
        driver.quit();
    }
}
