package org.electorallog.launcher;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import org.electorallog.config.Configuration;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.export.ExportManifest;
import org.electorallog.export.ParquetFiles;
import org.electorallog.query.BoardExport;
import org.electorallog.store.Projection;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code electoral-log export --board B --format parquet --out DIR} (issue 63): a board's records
 * at a signed checkpoint as Parquet files with a manifest that proves them ({@link BoardExport});
 * {@code verify-export DIR} checks them with no database. The projection's login comes from the
 * shared configuration (docs/configuration.md). Exit 0 written, 2 on bad options or a failure.
 */
@Command(
        name = "export",
        mixinStandardHelpOptions = true,
        description = "Export a board's records at a signed checkpoint as Parquet files with a manifest and "
                + "range proof; verify them with verify-export.")
public final class ExportCommand implements Callable<Integer> {
    @Option(names = "--board", required = true, description = "the board")
    String board;

    @Option(names = "--format", defaultValue = "parquet", description = "parquet (the only verifiable format)")
    String format;

    @Option(
            names = "--at",
            description = "the size of the signed checkpoint to export at; default the latest witnessed one, else the "
                    + "latest")
    Long at;

    @Option(names = "--from", description = "the first record of the range; default 0")
    Long from;

    @Option(names = "--to", description = "the record after the range's last; default the checkpoint's size")
    Long to;

    @Option(names = "--out", required = true, description = "the directory to write the files and manifest.json into")
    Path out;

    @Option(
            names = "--rows-per-file",
            defaultValue = "" + ParquetFiles.ROWS_PER_FILE,
            description = "records a Parquet file holds; default ${DEFAULT-VALUE}")
    int rowsPerFile;

    @Option(
            names = "--view",
            defaultValue = ExportManifest.PUBLIC,
            description = "public (what anyone may read; the default) or personal (also the opened personal values, "
                    + "in openings files: for a role that may read them, never to publish)")
    String view;

    /** The environment the configuration is read from (tests give their own). */
    Map<String, String> environment = System.getenv();

    PrintStream stdout = System.out;
    PrintStream stderr = System.err;

    public ExportCommand() {}

    /** A command reading the configuration from {@code environment} and writing to {@code out} and {@code err} (the demo's). */
    public ExportCommand(Map<String, String> environment, PrintStream out, PrintStream err) {
        this.environment = environment;
        this.stdout = out;
        this.stderr = err;
    }

    @Override
    public Integer call() {
        try {
            if (!"parquet".equals(format)) {
                throw new IllegalArgumentException("--format " + format + " is not one this command writes: parquet is "
                        + "(CSV and JSON Lines exports are the query API's, GET /boards/{board}/export)");
            }
            BoardExport.Written w;
            try (Projection db = Projection.open(DatabaseLogin.of(Configuration.load(environment)), 1, "export")) {
                w = BoardExport.export(db, new BoardExport.Request(board, at, from, to, out, rowsPerFile, view));
            }
            ExportManifest m = w.manifest();
            long n = m.end() - m.start();
            stdout.printf(
                    "exported records [%,d, %,d) of %s at the checkpoint of size %,d (%s) into %s: %d file(s), "
                            + "%.1f s (%,.0f records/s)%n",
                    m.start(),
                    m.end(),
                    board,
                    m.size(),
                    w.witnessed() ? "witnessed" : "not witnessed",
                    out,
                    m.files().size(),
                    w.seconds(),
                    n / Math.max(w.seconds(), 1e-9));
            if (ExportManifest.PERSONAL.equals(view)) {
                stdout.println("the personal view: " + out + " holds personal data (its openings files); give it only "
                        + "to a role that may read personal values, never publish it");
            }
            stdout.println("verify: electoral-log verify-export " + out + " --log-key <the log's verifier key>");
            return 0;
        } catch (RuntimeException e) {
            stderr.println("export: " + AuditCommand.oneLine(e));
            return 2;
        }
    }
}
