package org.electorallog.projector;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.electorallog.config.Configuration;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.config.Setting;
import org.electorallog.core.Cosigner;
import org.electorallog.core.NoteSigner;
import org.electorallog.statement.KeyEncryptionKeys;

/**
 * Reads {@link ProjectorSettings} from the configuration (environment variables and an optional
 * properties file, docs/configuration.md); a missing or invalid setting is an error that names it,
 * and the signing key is never echoed.
 */
public final class ProjectorConfig {

    private ProjectorConfig() {}

    /** Settings from {@code env} (and the file it names); throws IllegalArgumentException naming the first bad setting. */
    public static ProjectorSettings fromEnvironment(Map<String, String> env) {
        return from(Configuration.load(env));
    }

    /** Settings from a configuration; throws IllegalArgumentException naming the first bad setting. */
    public static ProjectorSettings from(Configuration conf) {
        String bootstrap = conf.required(Setting.KAFKA_BOOTSTRAP);
        DatabaseLogin login = DatabaseLogin.of(conf);
        NoteSigner signer = signer(conf);
        ProjectorSettings s = ProjectorSettings.defaults(bootstrap, login, Path.of(conf.get(Setting.STATE_DIR)), signer)
                .withTopics(conf.get(Setting.TOPIC), conf.get(Setting.DEAD_LETTER_TOPIC))
                .withApplicationId(conf.get(Setting.APPLICATION_ID))
                .withBatch(
                        (int) conf.number(Setting.BATCH_MAX_RECORDS),
                        Duration.ofMillis(conf.number(Setting.BATCH_MAX_WAIT_MS)))
                .withOriginPrefix(conf.get(Setting.ORIGIN_PREFIX))
                .withStreamThreads((int) conf.number(Setting.STREAM_THREADS));
        if (conf.isSet(Setting.INSTANCE_ID)) {
            s = s.withInstanceId(conf.get(Setting.INSTANCE_ID));
        }
        s = s.withSessionTimeout(Duration.ofMillis(conf.number(Setting.GROUP_SESSION_TIMEOUT_MS)));
        try {
            s = s.withSignatures(SignaturePolicy.parse(
                    conf.get(Setting.SIGNATURE_POLICY),
                    conf.get(Setting.SIGNED_BOARDS),
                    conf.get(Setting.SYSTEM_PUBLIC_KEYS),
                    conf.get(Setting.SENDER_REGISTRY)));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(Setting.SIGNATURE_POLICY.env + "/" + Setting.SIGNED_BOARDS.env + "/"
                    + Setting.SYSTEM_PUBLIC_KEYS.env + "/" + Setting.SENDER_REGISTRY.env + ": " + e.getMessage());
        }
        s = s.withCheckpointEvery(Duration.ofMillis(conf.number(Setting.CHECKPOINT_EVERY_MS)))
                .withPostQuantumEvery(Duration.ofMillis(conf.number(Setting.POST_QUANTUM_CHECKPOINT_EVERY_MS)));
        s = s.withWarmUp(conf.number(Setting.WARM_UP_STATEMENTS));
        if (conf.isSet(Setting.SCHEMA_REGISTRY_URL)) {
            s = s.withSchemaRegistry(conf.get(Setting.SCHEMA_REGISTRY_URL));
        }
        s = s.withWriterSchemaRequired("REQUIRED".equals(conf.get(Setting.WRITER_SCHEMA)));
        if (conf.isSet(Setting.KEY_ENCRYPTION_KEY_FILES)) {
            try {
                s = s.withKeyEncryption(KeyEncryptionKeys.load(conf.list(Setting.KEY_ENCRYPTION_KEY_FILES).stream()
                        .map(Path::of)
                        .toList()));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(Setting.KEY_ENCRYPTION_KEY_FILES.env + ": " + e.getMessage());
            }
        }
        return s.withKafkaSecurity(conf.kafkaSecurity());
    }

    /**
     * The log's signing key of {@code conf} (ELECTORAL_LOG_SIGNING_KEY or _FILE): what signs its
     * checkpoints and the statements it makes about itself (seals, erasures' accounts, heads entries).
     */
    public static NoteSigner signer(Configuration conf) {
        String key = conf.secret(Setting.SIGNING_KEY);
        if (key == null) {
            throw new IllegalArgumentException(Setting.SIGNING_KEY.env + " (or " + Setting.SIGNING_KEY.fileEnv()
                    + ") must hold the log's signer key, PRIVATE+KEY+<name>+<id>+<base64>");
        }
        NoteSigner signer;
        try {
            signer = NoteSigner.parse(key);
        } catch (IllegalArgumentException e) {
            // never echo the key itself
            throw new IllegalArgumentException(
                    conf.secretSource(Setting.SIGNING_KEY) + " is not a valid signer key: " + e.getMessage());
        }
        String postQuantum = conf.secret(Setting.POST_QUANTUM_SIGNING_KEY);
        if (postQuantum == null) {
            return signer;
        }
        try {
            return signer.withPostQuantum(Cosigner.Key.parse(postQuantum));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(conf.secretSource(Setting.POST_QUANTUM_SIGNING_KEY)
                    + " is not the log's ML-DSA-44 key: " + e.getMessage());
        }
    }
}
