package org.electorallog.perf;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/** The performance page's section of {@link National} figures (issue 45 item 4). */
final class NationalSection {
    private NationalSection() {}

    static void write(StringBuilder md, National n) {
        md.append("## National scale (issue 45)\n\n")
                .append("From `perf/national` (its README has the commands); each table names the commit its file was ")
                .append("measured at, on this machine, the load generator on the same 2 cores.\n\n");
        rounds(md, n.witnessRounds());
        loads(
                md,
                "Record proofs",
                "proofs",
                n.proofs(),
                "`./electoral-log perf proofs`: a proof from the API is one "
                        + "request; from the files, the checkpoint and each tile on the record's path, one after the other");
        loads(md, "Full tiles", "tiles", n.tiles(), "`./electoral-log perf tiles`: the API serves them from memory");
        held(md, n);
    }

    private static void rounds(StringBuilder md, National.WitnessRounds w) {
        md.append("### Witness requests a round (`perf witness-rounds`, ")
                .append(w.commit())
                .append(")\n\n")
                .append("Every board changed before each round; one witness; the median of the rounds measured.\n\n")
                .append("| boards | BOARDS: requests | round s | HEADS: requests | round s |\n|---|---|---|---|---|\n");
        for (int boards :
                new TreeSet<>(w.runs().stream().map(National.Round::boards).toList())) {
            md.append("| ").append(String.format(Locale.ROOT, "%,d", boards));
            for (String mode : List.of("BOARDS", "HEADS")) {
                List<National.Round> rs = w.runs().stream()
                        .filter(r -> r.mode().equals(mode) && r.boards() == boards)
                        .sorted(Comparator.comparingDouble(National.Round::roundSeconds))
                        .toList();
                National.Round median = rs.get(rs.size() / 2);
                md.append(" | ")
                        .append(String.format(Locale.ROOT, "%,d", median.requests()))
                        .append(" | ")
                        .append(ReportWriter.f2(median.roundSeconds()));
            }
            md.append(" |\n");
        }
        md.append('\n');
    }

    private static void loads(StringBuilder md, String title, String command, National.Loads l, String how) {
        md.append("### ")
                .append(title)
                .append(": the API against nginx on the published files (`perf ")
                .append(command)
                .append("`, ")
                .append(l.commit())
                .append(")\n\n")
                .append("Board ")
                .append(l.board())
                .append(" at ")
                .append(String.format(Locale.ROOT, "%,d", l.boardSize()))
                .append(" records; ")
                .append(how)
                .append(".\n\n| connections | API /s | API p99 ms | nginx /s | nginx p99 ms | API / nginx |\n")
                .append("|---|---|---|---|---|---|\n");
        for (int c : new TreeSet<>(
                l.runs().stream().map(National.LoadRun::connections).toList())) {
            National.LoadRun api = l.at("api", c);
            National.LoadRun nginx = l.at("nginx", c);
            md.append("| ")
                    .append(c)
                    .append(" | ")
                    .append(ReportWriter.f0(api.perSecond()))
                    .append(" | ")
                    .append(ReportWriter.f2(api.p99Ms()))
                    .append(" | ")
                    .append(ReportWriter.f0(nginx.perSecond()))
                    .append(" | ")
                    .append(ReportWriter.f2(nginx.p99Ms()))
                    .append(" | ")
                    .append(String.format(Locale.ROOT, "%.0f %%", 100 * api.perSecond() / nginx.perSecond()))
                    .append(" |\n");
        }
        md.append('\n');
    }

    private static void held(StringBuilder md, National n) {
        Baseline.Fill f = n.heldFill();
        double early = rate(f, 0, 1_000_000);
        double late = rate(f, 15_000_000, 20_000_000);
        md.append("### 20M records with PostgreSQL's memory held to a 50M board's share (`perf fill --hold-memory-gb ")
                .append(n.held().memoryHeldGb())
                .append("`, ")
                .append(n.heldCommit())
                .append(")\n\n")
                .append("A child process held ")
                .append(n.held().memoryHeldGb())
                .append(" GB for the whole fill (MemAvailable at the start: ")
                .append(n.held().memoryGbAtStart().get("MemAvailable"))
                .append(" GB of ")
                .append(n.held().memoryGbAtStart().get("MemTotal"))
                .append("), so PostgreSQL's shared buffers and page cache had about the share of memory a 50M board ")
                .append("would have (perf/national/README.md).\n\n")
                .append("| window | records/s |\n|---|---|\n")
                .append("| 0 -> 1M | ")
                .append(ReportWriter.f0(early))
                .append(" |\n")
                .append("| 15M -> 20M | ")
                .append(ReportWriter.f0(late))
                .append(" |\n")
                .append("| 15M -> 20M against 0 -> 1M | ")
                .append(String.format(Locale.ROOT, "%.0f %%", 100 * late / early))
                .append(" |\n\n");
    }

    /** Records a second over the windows from {@code from} to {@code to}. */
    static double rate(Baseline.Fill f, long from, long to) {
        double records = 0;
        double seconds = 0;
        for (Baseline.Window w : f.windows()) {
            if (w.from() >= from && w.to() <= to) {
                records += w.to() - w.from();
                seconds += w.seconds();
            }
        }
        return seconds == 0 ? Double.NaN : records / seconds;
    }
}
