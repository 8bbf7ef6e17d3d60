package org.electorallog.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.electorallog.config.Configuration;
import org.electorallog.config.Setting;
import org.electorallog.core.SigningKey;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.producer.ProducerBuilder;
import org.electorallog.projector.ProjectorConfig;
import org.electorallog.schemas.Topics;
import picocli.CommandLine.Option;

/**
 * The options of the commands that publish statements ({@code publish}, {@code seal}): where the
 * events topic is and who signs, over the shared configuration (docs/configuration.md: servers,
 * SASL/TLS, schema registry).
 */
final class ProducerOptions {
    @Option(
            names = "--bootstrap",
            paramLabel = "HOST:PORT",
            description = "Kafka bootstrap servers; default $ELECTORAL_LOG_KAFKA_BOOTSTRAP or 127.0.0.1:9092")
    String bootstrap;

    @Option(names = "--topic", description = "events topic; default $ELECTORAL_LOG_TOPIC or " + Topics.EVENTS)
    String topic;

    @Option(names = "--sender-key-file", paramLabel = "FILE", description = "base64 Ed25519 seed: sign as this sender")
    Path senderKeyFile;

    @Option(
            names = "--system-key-file",
            paramLabel = "FILE",
            description = "base64 Ed25519 seed: add the system signature")
    Path systemKeyFile;

    /** A producer builder from these options and the configuration; the message names what is wrong. */
    ProducerBuilder builder() throws IOException {
        return builder(Configuration.fromEnvironment());
    }

    /**
     * A producer builder for the statements the log makes about itself (statement {@code LogStatements}:
     * seals, erasures' accounts), signing with the log's key of {@code conf} (ELECTORAL_LOG_SIGNING_KEY
     * or _FILE, decision 130): the projector takes them from no other key, whatever the registry says.
     * A sender or system key given to such a command is refused, not silently ignored.
     */
    ProducerBuilder logsOwn(Configuration conf) throws IOException {
        if (senderKeyFile != null || systemKeyFile != null) {
            throw new IllegalArgumentException("this statement is the log's own and is signed with the log's key "
                    + "(ELECTORAL_LOG_SIGNING_KEY or _FILE): --sender-key-file and --system-key-file do not apply");
        }
        return builder(conf).senderKey(ProjectorConfig.signer(conf).statementKey());
    }

    /** A producer builder from these options and {@code conf}. */
    ProducerBuilder builder(Configuration conf) throws IOException {
        String servers = bootstrap != null
                ? bootstrap
                : conf.isSet(Setting.KAFKA_BOOTSTRAP) ? conf.get(Setting.KAFKA_BOOTSTRAP) : "127.0.0.1:9092";
        ProducerBuilder b =
                ElectoralLogProducer.builder(servers).topic(topic != null ? topic : conf.get(Setting.TOPIC));
        for (Map.Entry<String, Object> e : conf.kafkaSecurity().entrySet()) {
            b.kafka(e.getKey(), String.valueOf(e.getValue()));
        }
        if (conf.isSet(Setting.SCHEMA_REGISTRY_URL)) {
            b.schemaRegistry(conf.get(Setting.SCHEMA_REGISTRY_URL));
        }
        try {
            if (senderKeyFile != null) {
                b.senderKey(SigningKey.parse(Files.readString(senderKeyFile)));
            }
            if (systemKeyFile != null) {
                b.systemKey(SigningKey.parse(Files.readString(systemKeyFile)));
            }
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("bad key file: " + e.getMessage(), e);
        }
        return b;
    }
}
