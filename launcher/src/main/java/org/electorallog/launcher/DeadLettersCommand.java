package org.electorallog.launcher;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import org.electorallog.config.Configuration;
import org.electorallog.config.Setting;
import org.electorallog.projector.DeadLetterArchive;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code electoral-log dead-letters list|republish}: the events the projector refused, with their
 * reasons, and re-publishing chosen ones once their cause is fixed (a sender registered, a schema
 * registered, a bug fixed). Reads Kafka through the shared configuration
 * ({@code ELECTORAL_LOG_KAFKA_*}, {@code _TOPIC}, {@code _DEAD_LETTER_TOPIC}). Exit 0 when done, 2
 * with a one-line message otherwise.
 */
@Command(
        name = "dead-letters",
        mixinStandardHelpOptions = true,
        description = "List the dead letters with their reasons, or re-publish chosen ones (original bytes).")
public final class DeadLettersCommand implements Callable<Integer> {
    @Parameters(index = "0", description = "list or republish")
    String action;

    @Option(names = "--board", description = "only this board's")
    String board;

    @Option(names = "--reason", description = "only this reason (e.g. SENDER_UNREGISTERED)")
    String reason;

    @Option(names = "--since", description = "only those refused at or after this ISO 8601 time")
    String since;

    @Option(names = "--until", description = "only those refused before this ISO 8601 time")
    String until;

    @Option(
            names = "--id",
            description = "republish: a dead letter as list names it, <partition>@<offset> (repeatable)")
    List<String> ids = new ArrayList<>();

    @Option(names = "--all", description = "republish: every dead letter the filters match")
    boolean all;

    /** The environment the configuration is read from (tests give their own). */
    Map<String, String> environment = System.getenv();

    PrintStream out = System.out;
    PrintStream err = System.err;

    @Override
    public Integer call() {
        try {
            Configuration conf = Configuration.load(environment);
            Properties kafka = new Properties();
            kafka.put("bootstrap.servers", conf.required(Setting.KAFKA_BOOTSTRAP));
            kafka.putAll(conf.kafkaSecurity());
            DeadLetterArchive archive = new DeadLetterArchive(kafka, conf.get(Setting.DEAD_LETTER_TOPIC));
            DeadLetterArchive.Filter filter = new DeadLetterArchive.Filter(
                    board, reason, OptionValues.instant("--since", since), OptionValues.instant("--until", until));
            switch (action) {
                case "list" -> {
                    List<DeadLetterArchive.Entry> found = archive.list(filter);
                    for (DeadLetterArchive.Entry e : found) {
                        out.println(describe(e));
                    }
                    out.println("dead-letters: " + found.size() + " found");
                }
                case "republish" -> republish(archive, filter);
                default -> throw new IllegalArgumentException("say list or republish, not '" + action + "'");
            }
            return 0;
        } catch (RuntimeException e) {
            err.println("dead-letters: " + e.getMessage());
            return 2;
        }
    }

    private void republish(DeadLetterArchive archive, DeadLetterArchive.Filter filter) {
        if (ids.isEmpty() == !all) {
            throw new IllegalArgumentException("republish needs --id (one or more) or --all with filters, not both");
        }
        List<DeadLetterArchive.Entry> chosen = new ArrayList<>();
        if (all) {
            chosen.addAll(archive.list(filter));
        } else {
            for (String id : ids) {
                chosen.add(archive.find(id));
            }
        }
        for (DeadLetterArchive.Entry e : chosen) {
            out.println("dead-letters: republished " + e.id() + " (" + e.reason() + ", original " + e.sourceTopic()
                    + "-" + e.sourcePartition() + "@" + e.sourceOffset() + ") as " + archive.republish(e));
        }
        out.println("dead-letters: " + chosen.size() + " republished; the projector drops any that it had already "
                + "accepted (same delivery ID) and dead-letters again those whose cause remains");
    }

    static String describe(DeadLetterArchive.Entry e) {
        return e.id() + " " + e.refused() + " board=" + e.board() + " reason=" + e.reason() + " source="
                + e.sourceTopic() + "-" + e.sourcePartition() + "@" + e.sourceOffset()
                + (e.truncated() ? " (copy truncated; republish uses the original)" : "") + ": " + e.message();
    }
}
