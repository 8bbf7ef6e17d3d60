package org.electorallog.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;

/**
 * The settings of one process, from the environment and an optional properties file
 * ({@code ELECTORAL_LOG_CONFIG_FILE}; the environment overrides it). Every {@code ELECTORAL_LOG_*}
 * name must be one of {@link Setting}: a typo fails at start instead of being ignored. Every getter
 * that cannot parse its value throws {@link IllegalArgumentException} naming the setting; secrets
 * can come from {@code NAME_FILE} and are never part of a message.
 */
public final class Configuration {
    private final Map<String, String> values;

    private Configuration(Map<String, String> values) {
        this.values = values;
    }

    /** The configuration of this process: {@code System.getenv()} over the optional file. */
    public static Configuration fromEnvironment() {
        return load(System.getenv());
    }

    /** The configuration from {@code env} over the file it names, if any. */
    public static Configuration load(Map<String, String> env) {
        Map<String, String> merged = new HashMap<>();
        String file = env.get(Setting.CONFIG_FILE.env);
        if (file != null && !file.isBlank()) {
            Properties p = new Properties();
            try (Reader r = Files.newBufferedReader(Path.of(file.strip()), StandardCharsets.UTF_8)) {
                p.load(r);
            } catch (IOException e) {
                throw new IllegalArgumentException(
                        Setting.CONFIG_FILE.env + ": cannot read '" + file + "': " + e.getMessage());
            }
            for (String name : p.stringPropertyNames()) {
                merged.put(name, p.getProperty(name));
                if (Setting.ofVariable(name).isEmpty()) {
                    throw unknown(name, "in " + file);
                }
            }
        }
        for (Map.Entry<String, String> e : env.entrySet()) {
            if (e.getKey().startsWith("ELECTORAL_LOG_")) {
                if (Setting.ofVariable(e.getKey()).isEmpty()) {
                    throw unknown(e.getKey(), "in the environment");
                }
                merged.put(e.getKey(), e.getValue());
            }
        }
        Configuration c = new Configuration(merged);
        for (Setting s : Setting.values()) {
            if (!s.secret() && c.isSet(s)) {
                s.type.parse(s.env, c.get(s));
            }
        }
        return c;
    }

    private static IllegalArgumentException unknown(String name, String where) {
        TreeSet<String> known = new TreeSet<>(Setting.variables());
        return new IllegalArgumentException(
                name + " (" + where + ") is not a setting of the electoral log; the settings are "
                        + "listed in docs/configuration.md: " + known);
    }

    /** The value, or the setting's default (null when it has none); blank counts as unset. */
    public String get(Setting s) {
        String v = values.get(s.env);
        return v == null || v.isBlank() ? s.defaultValue : v.strip();
    }

    public boolean isSet(Setting s) {
        String v = values.get(s.env);
        return v != null && !v.isBlank();
    }

    /** The value; missing is an error naming the setting. */
    public String required(Setting s) {
        String v = get(s);
        if (v == null) {
            throw new IllegalArgumentException(s.env + " is required: " + s.meaning);
        }
        return v;
    }

    /**
     * A secret from its variable or from the file its {@code _FILE} twin names (trailing newline
     * removed), its default when neither is set; both set is an error. The value never appears in a
     * message.
     */
    public String secret(Setting s) {
        String fileEnv = s.fileEnv();
        String path = values.get(fileEnv);
        boolean fromFile = path != null && !path.isBlank();
        if (isSet(s) && fromFile) {
            throw new IllegalArgumentException("set " + s.env + " or " + fileEnv + ", not both");
        }
        if (fromFile) {
            try {
                return Files.readString(Path.of(path.strip()), StandardCharsets.UTF_8)
                        .strip();
            } catch (IOException e) {
                throw new IllegalArgumentException(fileEnv + ": cannot read '" + path.strip() + "': " + e.getMessage());
            }
        }
        return isSet(s) ? values.get(s.env).strip() : s.defaultValue;
    }

    /** Where a secret came from, for messages: its {@code _FILE} twin when that is set, else its variable. */
    public String secretSource(Setting s) {
        String path = values.get(s.fileEnv());
        return path != null && !path.isBlank() ? s.fileEnv() : s.env;
    }

    /** A whole-number setting, within the bounds its type declares. */
    /**
     * The text of the file a {@code PATH} setting names (UTF-8), or null when it is unset; a file that
     * cannot be read fails with a message naming the setting.
     */
    public String fileText(Setting s) {
        String path = get(s);
        if (path == null || path.isBlank()) {
            return null;
        }
        try {
            return Files.readString(Path.of(path.strip()));
        } catch (IOException e) {
            throw new IllegalArgumentException(s.env + ": cannot read '" + path.strip() + "': " + e.getMessage());
        }
    }

    public long number(Setting s) {
        return (Long) parsed(s, SettingType.Kind.WHOLE);
    }

    /** A TCP port setting. */
    public int port(Setting s) {
        if (s.type != SettingType.PORT) {
            throw new IllegalStateException(s.env + " is not a port");
        }
        return (int) number(s);
    }

    /** A setting that takes one of a few words: the word as its type lists it. */
    public String oneOf(Setting s) {
        return (String) parsed(s, SettingType.Kind.WORDS);
    }

    /** A path setting, null when unset and without a default. */
    public Path path(Setting s) {
        String v = get(s);
        return v == null ? null : Path.of(v);
    }

    /** A base64 secret's bytes, checked against the least length its type declares; null when unset. */
    public byte[] base64Secret(Setting s) {
        String v = secret(s);
        return v == null ? null : (byte[]) s.type.parse(secretSource(s), v);
    }

    private Object parsed(Setting s, SettingType.Kind kind) {
        if (s.type.kind != kind) {
            throw new IllegalStateException(s.env + " is " + s.type.describe() + ", not " + kind);
        }
        return s.type.parse(s.env, required(s));
    }

    /** A list setting's values, empty when unset. */
    @SuppressWarnings("unchecked")
    public List<String> list(Setting s) {
        if (s.type.kind != SettingType.Kind.LIST) {
            throw new IllegalStateException(s.env + " is " + s.type.describe() + ", not a list");
        }
        String v = get(s);
        return v == null ? List.of() : (List<String>) s.type.parse(s.env, v);
    }

    /**
     * Kafka client properties for the security settings: nothing for PLAINTEXT; for SASL, SCRAM with
     * the user and password (required); for SSL/SASL_SSL, the truststore when given.
     */
    public Map<String, Object> kafkaSecurity() {
        Map<String, Object> p = new HashMap<>();
        String protocol = oneOf(Setting.KAFKA_SECURITY_PROTOCOL);
        p.put("security.protocol", protocol);
        if (protocol.startsWith("SASL")) {
            String mechanism = oneOf(Setting.KAFKA_SASL_MECHANISM);
            String user = required(Setting.KAFKA_USERNAME);
            String password = secret(Setting.KAFKA_PASSWORD);
            if (password == null) {
                throw new IllegalArgumentException(
                        Setting.KAFKA_PASSWORD.env + " (or " + Setting.KAFKA_PASSWORD.fileEnv() + ") is required with "
                                + Setting.KAFKA_SECURITY_PROTOCOL.env + "=" + protocol);
            }
            p.put("sasl.mechanism", mechanism);
            p.put("sasl.jaas.config", scramJaas(user, password));
        }
        if (protocol.endsWith("SSL") && isSet(Setting.KAFKA_TRUSTSTORE)) {
            p.put("ssl.truststore.location", get(Setting.KAFKA_TRUSTSTORE));
            p.put("ssl.truststore.type", "PKCS12");
            String password = secret(Setting.KAFKA_TRUSTSTORE_PASSWORD);
            if (password != null) {
                p.put("ssl.truststore.password", password);
            }
        }
        return p;
    }

    /** The JAAS line of a SCRAM login, with the user name and password quoted. */
    public static String scramJaas(String user, String password) {
        return "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + quote(user)
                + "\" password=\"" + quote(password) + "\";";
    }

    private static String quote(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    /** The names set, with secrets masked: what a process may log about its configuration. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("{");
        new TreeSet<>(values.keySet()).forEach(k -> {
            boolean secret = Setting.byName(k).map(Setting::secret).orElse(false); // a _FILE twin holds a path
            sb.append(sb.length() > 1 ? ", " : "").append(k).append('=').append(secret ? "***" : values.get(k));
        });
        return sb.append('}').toString();
    }
}
