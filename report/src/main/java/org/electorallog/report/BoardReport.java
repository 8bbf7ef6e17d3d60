package org.electorallog.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.TreeSet;
import org.electorallog.core.TileLayout;
import org.electorallog.verifier.BoardObservations;
import org.electorallog.verifier.Verification;

/**
 * {@code verify-board --report FILE.html} (issue 69 item 4, docs/witnesses.md "The report"): one
 * self-contained HTML page of a verified board that anyone can read: its identity and the keys it
 * was checked with, every check made with its counts, the problems if any, records per hour by
 * kind and the checkpoints and their cosignatures over time as charts (Chart.js, inlined; each with
 * the table of its numbers), the seal, and the command that repeats the verification. Nothing is
 * fetched when it opens: it reads offline, and its print style keeps the tables.
 */
public final class BoardReport {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter HOUR =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:00 'UTC'").withZone(ZoneOffset.UTC);

    private BoardReport() {}

    /** Writes the report of {@code board} to {@code file}. */
    public static void write(VerifiedBoard board, Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, html(board), StandardCharsets.UTF_8);
    }

    /** The report page. */
    public static String html(VerifiedBoard b) {
        Verification r = b.result();
        StringBuilder h = new StringBuilder(64 * 1024);
        String title = "Board " + b.name() + ": verification report";
        h.append("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<title>")
                .append(esc(title))
                .append("</title>\n<style>\n")
                .append(resource("/report/report.css"))
                .append("</style>\n</head>\n<body>\n<main>\n<h1>")
                .append(esc(title))
                .append("</h1>\n");
        verdict(h, b);
        identity(h, b);
        checks(h, b);
        perHour(h, b.observations());
        checkpoints(h, b.observations());
        seal(h, r);
        h.append("<section aria-labelledby=\"repeat\">\n<h2 id=\"repeat\">Repeat this verification</h2>\n")
                .append(
                        "<p>Anyone can run the same checks with the electoral log's command line "
                                + "(its documentation: docs/witnesses.md, The report), trusting the same keys:</p>\n<pre><code>")
                .append(esc(b.command()))
                .append("</code></pre>\n</section>\n</main>\n");
        h.append("<script type=\"application/json\" id=\"report-data\">")
                .append(data(b.observations()).toString().replace("<", "\\u003c"))
                .append("</script>\n<script>\n")
                .append(chartJs().replace("</script", "<\\/script"))
                .append("\n</script>\n<script>\n")
                .append(resource("/report/charts.js"))
                .append("</script>\n</body>\n</html>\n");
        return h.toString();
    }

    private static void verdict(StringBuilder h, VerifiedBoard b) {
        Verification r = b.result();
        h.append("<p class=\"verdict ")
                .append(r.verified() ? "ok" : "bad")
                .append("\" role=\"status\"><strong>")
                .append(
                        r.verified()
                                ? "Verified."
                                : "NOT verified: " + r.problems().size() + " problem(s).")
                .append("</strong> ")
                .append(esc(String.format(
                        "Board %s at %,d records was read from %s and checked on %s, in %.1f s.",
                        b.name(), r.size(), b.source(), TIME.format(b.verifiedAt()), r.seconds())))
                .append("</p>\n");
        if (!r.verified()) {
            h.append("<section aria-labelledby=\"problems\">\n<h2 id=\"problems\">Problems</h2>\n<ol>\n");
            r.problems().forEach(p -> h.append("<li>").append(esc(p)).append("</li>\n"));
            h.append("</ol>\n</section>\n");
        }
    }

    private static void identity(StringBuilder h, VerifiedBoard b) {
        Verification r = b.result();
        h.append("<section aria-labelledby=\"identity\">\n<h2 id=\"identity\">The board</h2>\n<dl>\n");
        dt(h, "Board", b.name());
        dt(
                h,
                "Checkpoint origin",
                b.observations().origin() == null
                        ? "none read"
                        : b.observations().origin());
        dt(h, "Size", String.format("%,d records", r.size()));
        dt(h, "Root hash (SHA-256, base64)", r.root() == null ? "none" : r.root());
        h.append("<dt>The log's keys trusted</dt>\n");
        b.logKeys().forEach(k -> h.append("<dd><code>").append(esc(k)).append("</code></dd>\n"));
        h.append("<dt>Witnesses trusted</dt>\n");
        if (b.witnessKeys().isEmpty()) {
            h.append("<dd>none</dd>\n");
        }
        b.witnessKeys().forEach(k -> h.append("<dd><code>").append(esc(k)).append("</code></dd>\n"));
        dt(h, "Witness rule", b.quorum());
        dt(h, "Read from", b.source());
        h.append("</dl>\n</section>\n");
    }

    private static void dt(StringBuilder h, String term, String value) {
        h.append("<dt>")
                .append(esc(term))
                .append("</dt><dd>")
                .append(esc(value))
                .append("</dd>\n");
    }

    /** Every check verify-board makes, with what it covered; those this run could not make say so. */
    private static void checks(StringBuilder h, VerifiedBoard b) {
        Verification r = b.result();
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {
            "Log signature",
            "checked",
            "the checkpoint is a signed note (C2SP signed-note, tlog-checkpoint) signed by one of the "
                    + b.logKeys().size() + " log key(s) trusted"
        });
        boolean witnesses = !b.witnessKeys().isEmpty();
        rows.add(new String[] {
            "Witness cosignatures",
            witnesses ? "checked" : "not checked",
            witnesses
                    ? "the cosignatures (C2SP tlog-cosignature) of "
                            + b.witnessKeys().size()
                            + " witness(es) against the rule " + b.quorum()
                            + (r.witnessedSize() >= 0
                                    ? String.format(
                                            "; the rule vouches for the board up to %,d records", r.witnessedSize())
                                    : "")
                    : "no witness key was given: nothing shows that others saw the same log"
        });
        rows.add(new String[] {
            "Entries",
            r.entries() > 0 ? "checked" : "not checked",
            r.entries() > 0
                    ? String.format(
                            "%,d of %,d entries read, each hashed into its leaf (RFC 6962 section 2.1) and compared "
                                    + "with the level-0 tile",
                            r.entries(), r.size())
                    : "the source did not show the entries (an observer's token reads them): the leaves were "
                            + "taken from the tiles"
        });
        rows.add(new String[] {
            "Tree and tiles",
            "checked",
            String.format(
                    "the tree rebuilt from %,d leaves; %,d hash tiles compared with those served (C2SP tlog-tiles)",
                    r.leaves(), tiles(r.size()))
        });
        rows.add(new String[] {"Root", "checked", "the rebuilt tree's root is the checkpoint's: " + r.root()});
        int history =
                Math.max(0, b.observations().history().size() - 1) + b.olderGiven(); // the latest is not an earlier one
        rows.add(new String[] {
            "Earlier checkpoints",
            history > 0 ? "checked" : "not checked",
            history > 0
                    ? history + " earlier checkpoint(s) of the board, each signed by the log key and met by the "
                            + "rebuilt tree at its size: the log only grew"
                    : "the source keeps no history and none was given (--older)"
        });
        rows.add(new String[] {
            "Statement signatures",
            r.signed() >= 0 ? "checked" : "not checked",
            r.signed() >= 0
                    ? String.format(
                            "%,d sender signatures verified with the key each statement names; %,d statements carry none",
                            r.signed(), r.unsigned())
                    : "the signature bundles were not read (an observer's token reads them)"
        });
        rows.add(new String[] {
            "Sender registry",
            b.registry() ? "checked" : "not checked",
            b.registry()
                    ? "every signed statement's sender held a grant for its kind and board at its time"
                    : "no registry export was given (--senders)"
        });
        rows.add(new String[] {
            "System signatures",
            b.systemKeys() > 0 ? "checked" : "not checked",
            b.systemKeys() > 0
                    ? "with " + b.systemKeys() + " voting system key(s)"
                    : "no voting system key was given (--system-key)"
        });
        rows.add(new String[] {
            "Board rules",
            r.entries() > 0 ? "checked" : "not checked",
            "every statement is of this board; nothing follows a seal; a continuation only as the first record; "
                    + "the log's own statements in their shape, sent by the log's key"
        });
        if (r.continues() != null) {
            rows.add(new String[] {
                "Continuation", "checked", "continues board " + r.continues() + ", whose link was verified whole"
            });
        }
        h.append("<section aria-labelledby=\"checks\">\n<h2 id=\"checks\">What was verified</h2>\n")
                .append("<table>\n<caption>Each check and what it covered")
                .append(r.verified() ? "" : " (the problems above say which failed)")
                .append("</caption>\n<thead><tr><th scope=\"col\">Check</th><th scope=\"col\">Made</th>")
                .append("<th scope=\"col\">What it covered</th></tr></thead>\n<tbody>\n");
        for (String[] row : rows) {
            h.append("<tr><th scope=\"row\">")
                    .append(esc(row[0]))
                    .append("</th><td>")
                    .append(esc(row[1]))
                    .append("</td><td>")
                    .append(esc(row[2]))
                    .append("</td></tr>\n");
        }
        h.append("</tbody>\n</table>\n</section>\n");
    }

    /** The hash tiles of a tree of {@code size} leaves, at every level (C2SP tlog-tiles). */
    static long tiles(long size) {
        long n = 0;
        for (int level = 0; level < TileLayout.MAX_LEVELS; level++) {
            long below = size >> (TileLayout.TILE_HEIGHT * level);
            if (below == 0) {
                break;
            }
            n += (below + TileLayout.TILE_WIDTH - 1) / TileLayout.TILE_WIDTH;
        }
        return n;
    }

    private static void perHour(StringBuilder h, BoardObservations o) {
        h.append("<section aria-labelledby=\"per-hour\">\n<h2 id=\"per-hour\">Records per hour, by kind</h2>\n");
        Map<Long, Map<String, Long>> hours = o.perHour();
        if (hours.isEmpty()) {
            h.append("<p>No entry could be read from this source, so their times and kinds are not known here.</p>\n")
                    .append("</section>\n");
            return;
        }
        TreeSet<String> kinds = kinds(hours);
        h.append("<p>")
                .append(esc(String.format(
                        "%,d records read, by the hour of their statement time (UTC) and their kind.",
                        o.entriesCounted())))
                .append("</p>\n<figure>\n<div class=\"chart\"><canvas id=\"chart-per-hour\" role=\"img\" aria-label=\"")
                .append(esc("Bar chart of records per hour, stacked by kind; the table below holds its numbers"))
                .append(
                        "\"></canvas></div>\n<figcaption>Records per hour (UTC), stacked by kind.</figcaption>\n</figure>\n")
                .append("<table class=\"numbers\">\n<caption>Records per hour and kind</caption>\n<thead><tr>")
                .append("<th scope=\"col\">Hour (UTC)</th>");
        kinds.forEach(k -> h.append("<th scope=\"col\">").append(esc(k)).append("</th>"));
        h.append("<th scope=\"col\">All</th></tr></thead>\n<tbody>\n");
        for (Map.Entry<Long, Map<String, Long>> e : hours.entrySet()) {
            h.append("<tr><th scope=\"row\">")
                    .append(HOUR.format(Instant.ofEpochMilli(e.getKey())))
                    .append("</th>");
            long all = 0;
            for (String k : kinds) {
                long n = e.getValue().getOrDefault(k, 0L);
                all += n;
                h.append("<td>").append(String.format("%,d", n)).append("</td>");
            }
            h.append("<td>").append(String.format("%,d", all)).append("</td></tr>\n");
        }
        h.append("</tbody>\n</table>\n</section>\n");
    }

    private static TreeSet<String> kinds(Map<Long, Map<String, Long>> hours) {
        TreeSet<String> kinds = new TreeSet<>();
        hours.values().forEach(m -> kinds.addAll(m.keySet()));
        return kinds;
    }

    private static void checkpoints(StringBuilder h, BoardObservations o) {
        h.append("<section aria-labelledby=\"checkpoints\">\n<h2 id=\"checkpoints\">Checkpoints and cosignatures "
                + "over time</h2>\n");
        List<BoardObservations.HistoricCheckpoint> history = o.history();
        TreeSet<String> witnesses = new TreeSet<>();
        history.forEach(c -> c.cosignatures().forEach(w -> witnesses.add(w.witness())));
        h.append("<p>")
                .append(esc(history.size() + " checkpoint(s) of the board read"
                        + (history.size() > 1 ? ", evenly over its sizes" : "")
                        + "; each witness's cosignature on each one verified, at the time the witness states."))
                .append("</p>\n");
        if (witnesses.isEmpty()) {
            h.append("<p>No trusted witness cosigned them: a checkpoint carries no time of its own, so there is no "
                    + "time line to draw.</p>\n");
        } else {
            h.append("<figure>\n<div class=\"chart\"><canvas id=\"chart-checkpoints\" role=\"img\" aria-label=\"")
                    .append(esc("Line chart of checkpoint size against the time each witness cosigned it; the table "
                            + "below holds its numbers"))
                    .append("\"></canvas></div>\n<figcaption>Checkpoint size against the time each witness "
                            + "cosigned it.</figcaption>\n</figure>\n");
        }
        h.append("<table class=\"numbers\">\n<caption>Checkpoints read and who cosigned them when</caption>\n<thead>")
                .append("<tr><th scope=\"col\">Size (records)</th>");
        witnesses.forEach(w -> h.append("<th scope=\"col\">").append(esc(w)).append("</th>"));
        h.append("</tr></thead>\n<tbody>\n");
        for (BoardObservations.HistoricCheckpoint c : history) {
            h.append("<tr><th scope=\"row\">")
                    .append(String.format("%,d", c.size()))
                    .append("</th>");
            Map<String, Long> at = new TreeMap<>();
            c.cosignatures().forEach(w -> at.put(w.witness(), w.time()));
            for (String w : witnesses) {
                Long t = at.get(w);
                h.append("<td>")
                        .append(t == null ? "not cosigned" : TIME.format(Instant.ofEpochSecond(t)))
                        .append("</td>");
            }
            h.append("</tr>\n");
        }
        h.append("</tbody>\n</table>\n</section>\n");
    }

    private static void seal(StringBuilder h, Verification r) {
        h.append("<section aria-labelledby=\"seal\">\n<h2 id=\"seal\">The seal</h2>\n<p>");
        if (r.sealedSize() >= 0) {
            h.append(esc(String.format(
                    "The board was sealed at %,d records: its seal (a BOARD_SEALED statement sent by the log's key) "
                            + "is its last record, so the election's record on it is closed.",
                    r.sealedSize())));
        } else {
            h.append("The board is not sealed: records may still be added to it.");
        }
        h.append("</p>\n</section>\n");
    }

    /** The charts' numbers: records per hour by kind, and each witness's (time, size) points. */
    static ObjectNode data(BoardObservations o) {
        ObjectNode d = JSON.createObjectNode();
        ObjectNode perHour = d.putObject("perHour");
        ArrayNode hours = perHour.putArray("hours");
        o.perHour().keySet().forEach(hours::add);
        ArrayNode kinds = perHour.putArray("kinds");
        for (String k : kinds(o.perHour())) {
            ObjectNode kind = kinds.addObject();
            kind.put("kind", k);
            ArrayNode counts = kind.putArray("counts");
            o.perHour().values().forEach(m -> counts.add(m.getOrDefault(k, 0L)));
        }
        Map<String, ArrayNode> byWitness = new LinkedHashMap<>();
        ArrayNode witnesses = d.putObject("checkpoints").putArray("witnesses");
        for (BoardObservations.HistoricCheckpoint c : o.history()) {
            for (BoardObservations.Cosigned w : c.cosignatures()) {
                ArrayNode points = byWitness.computeIfAbsent(w.witness(), name -> {
                    ObjectNode n = witnesses.addObject();
                    n.put("name", name);
                    return n.putArray("points");
                });
                ObjectNode p = points.addObject();
                p.put("time", w.time());
                p.put("size", c.size());
            }
        }
        return d;
    }

    /** Chart.js's UMD bundle from its WebJar (org.webjars.npm:chart.js, the version the build pins). */
    static String chartJs() {
        Properties pom = new Properties();
        try (InputStream in =
                BoardReport.class.getResourceAsStream("/META-INF/maven/org.webjars.npm/chart.js/pom.properties")) {
            if (in == null) {
                throw new IllegalStateException("Chart.js's WebJar is not on the class path");
            }
            pom.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return resource(
                "/META-INF/resources/webjars/chart.js/" + pom.getProperty("version") + "/dist/chart.umd.min.js");
    }

    private static String resource(String name) {
        try (InputStream in = BoardReport.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("the class path has no " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Text as HTML: the five characters that could end or open markup, escaped. */
    static String esc(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
