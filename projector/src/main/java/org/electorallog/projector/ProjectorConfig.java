package org.electorallog.projector;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.electorallog.core.NoteSigner;
import org.electorallog.schemas.Topics;

/**
 * Reads {@link ProjectorSettings} from environment variables (see projector/README.md); a missing or
 * invalid setting is an error that names it.
 */
public final class ProjectorConfig {
    public static final String BOOTSTRAP = "ELECTORAL_LOG_KAFKA_BOOTSTRAP";
    public static final String JDBC_URL = "ELECTORAL_LOG_JDBC_URL";
    public static final String DB_USER = "ELECTORAL_LOG_DB_USER";
    public static final String DB_PASSWORD = "ELECTORAL_LOG_DB_PASSWORD";
    public static final String TOPIC = "ELECTORAL_LOG_TOPIC";
    public static final String DEAD_LETTER_TOPIC = "ELECTORAL_LOG_DEAD_LETTER_TOPIC";
    public static final String APPLICATION_ID = "ELECTORAL_LOG_APPLICATION_ID";
    public static final String INSTANCE_ID = "ELECTORAL_LOG_INSTANCE_ID";
    public static final String STATE_DIR = "ELECTORAL_LOG_STATE_DIR";
    public static final String SIGNING_KEY = "ELECTORAL_LOG_SIGNING_KEY";
    public static final String SIGNING_KEY_FILE = "ELECTORAL_LOG_SIGNING_KEY_FILE";
    public static final String ORIGIN_PREFIX = "ELECTORAL_LOG_ORIGIN_PREFIX";
    public static final String BATCH_MAX_RECORDS = "ELECTORAL_LOG_BATCH_MAX_RECORDS";
    public static final String BATCH_MAX_WAIT_MS = "ELECTORAL_LOG_BATCH_MAX_WAIT_MS";
    public static final String STREAM_THREADS = "ELECTORAL_LOG_STREAM_THREADS";
    public static final String SIGNATURE_POLICY = "ELECTORAL_LOG_SIGNATURE_POLICY";
    public static final String SIGNED_BOARDS = "ELECTORAL_LOG_SIGNED_BOARDS";
    public static final String SYSTEM_PUBLIC_KEYS = "ELECTORAL_LOG_SYSTEM_PUBLIC_KEYS";
    public static final String CHECKPOINT_EVERY_MS = "ELECTORAL_LOG_CHECKPOINT_EVERY_MS";

    private ProjectorConfig() {
    }

    /** Settings from {@code env}; throws IllegalArgumentException naming the first bad setting. */
    public static ProjectorSettings fromEnvironment(Map<String, String> env) {
        String bootstrap = required(env, BOOTSTRAP);
        String jdbc = required(env, JDBC_URL);
        NoteSigner signer = signer(env);
        ProjectorSettings s = new ProjectorSettings(bootstrap,
                env.getOrDefault(TOPIC, Topics.EVENTS),
                env.getOrDefault(DEAD_LETTER_TOPIC, Topics.DEAD_LETTERS),
                env.getOrDefault(APPLICATION_ID, ProjectorSettings.DEFAULT_APPLICATION_ID),
                Path.of(env.getOrDefault(STATE_DIR, "target/streams-state")),
                jdbc, env.getOrDefault(DB_USER, "postgres"), env.getOrDefault(DB_PASSWORD, ""),
                positive(env, BATCH_MAX_RECORDS, 5000),
                Duration.ofMillis(positive(env, BATCH_MAX_WAIT_MS, 100)),
                signer,
                env.getOrDefault(ORIGIN_PREFIX, ProjectorSettings.DEFAULT_ORIGIN_PREFIX),
                positive(env, STREAM_THREADS, 1));
        String instance = env.get(INSTANCE_ID);
        if (instance != null && !instance.isBlank()) {
            s = s.withInstanceId(instance.strip());
        }
        try {
            s = s.withSignatures(SignaturePolicy.parse(env.getOrDefault(SIGNATURE_POLICY, "NONE"),
                    env.get(SIGNED_BOARDS), env.get(SYSTEM_PUBLIC_KEYS)));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(SIGNATURE_POLICY + "/" + SIGNED_BOARDS + "/" + SYSTEM_PUBLIC_KEYS + ": "
                    + e.getMessage());
        }
        String every = env.get(CHECKPOINT_EVERY_MS);
        if (every != null && !every.isBlank()) {
            try {
                long ms = Long.parseLong(every.strip());
                if (ms < 0) {
                    throw new NumberFormatException();
                }
                s = s.withCheckpointEvery(Duration.ofMillis(ms));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(CHECKPOINT_EVERY_MS + " must be a whole number of milliseconds (0 = every batch), got '"
                        + every + "'");
            }
        }
        return s;
    }

    private static NoteSigner signer(Map<String, String> env) {
        String key = env.get(SIGNING_KEY);
        String file = env.get(SIGNING_KEY_FILE);
        if (key != null && file != null) {
            throw new IllegalArgumentException("set only one of " + SIGNING_KEY + " and " + SIGNING_KEY_FILE);
        }
        if (file != null) {
            try {
                key = Files.readString(Path.of(file));
            } catch (IOException e) {
                throw new IllegalArgumentException(SIGNING_KEY_FILE + ": cannot read " + file + ": " + e.getMessage());
            }
        }
        if (key == null || key.isBlank()) {
            throw new IllegalArgumentException(SIGNING_KEY + " (or " + SIGNING_KEY_FILE
                    + ") must hold the log's signer key, PRIVATE+KEY+<name>+<id>+<base64>");
        }
        try {
            return NoteSigner.parse(key);
        } catch (IllegalArgumentException e) {
            // never echo the key itself
            throw new IllegalArgumentException((file != null ? SIGNING_KEY_FILE : SIGNING_KEY) + " is not a valid signer key: "
                    + e.getMessage());
        }
    }

    private static String required(Map<String, String> env, String name) {
        String v = env.get(name);
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException(name + " is required");
        }
        return v.strip();
    }

    private static int positive(Map<String, String> env, String name, int dflt) {
        String v = env.get(name);
        if (v == null || v.isBlank()) {
            return dflt;
        }
        try {
            int n = Integer.parseInt(v.strip());
            if (n < 1) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a positive whole number, got '" + v + "'");
        }
    }
}
