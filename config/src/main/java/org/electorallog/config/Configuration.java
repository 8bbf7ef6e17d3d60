package org.electorallog.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
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
                if (Setting.byName(name).isEmpty()) {
                    throw unknown(name, "in " + file);
                }
            }
        }
        for (Map.Entry<String, String> e : env.entrySet()) {
            if (e.getKey().startsWith("ELECTORAL_LOG_")) {
                if (Setting.byName(e.getKey()).isEmpty()) {
                    throw unknown(e.getKey(), "in the environment");
                }
                merged.put(e.getKey(), e.getValue());
            }
        }
        return new Configuration(merged);
    }

    private static IllegalArgumentException unknown(String name, String where) {
        TreeSet<String> known = new TreeSet<>();
        for (Setting s : Setting.values()) {
            known.add(s.env);
        }
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
     * A secret from {@code s} or from the file {@code file} names (trailing newline removed), null
     * when neither is set; both set is an error. The value never appears in a message.
     */
    public String secret(Setting s, Setting file) {
        boolean direct = isSet(s);
        boolean fromFile = isSet(file);
        if (direct && fromFile) {
            throw new IllegalArgumentException("set " + s.env + " or " + file.env + ", not both");
        }
        if (fromFile) {
            try {
                return Files.readString(Path.of(get(file)), StandardCharsets.UTF_8)
                        .strip();
            } catch (IOException e) {
                throw new IllegalArgumentException(file.env + ": cannot read '" + get(file) + "': " + e.getMessage());
            }
        }
        return direct ? values.get(s.env).strip() : s.defaultValue;
    }

    /** A whole number in [min, max]. */
    public long number(Setting s, long min, long max) {
        String v = required(s);
        long n;
        try {
            n = Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(s.env + " must be a whole number, got '" + v + "'");
        }
        if (n < min || n > max) {
            throw new IllegalArgumentException(s.env + " must be between " + min + " and " + max + ", got " + n);
        }
        return n;
    }

    /** A TCP port (0 = any free port). */
    public int port(Setting s) {
        return (int) number(s, 0, 65535);
    }

    /** One of the given words (case-insensitive), upper-cased. */
    public String oneOf(Setting s, List<String> words) {
        String v = required(s).toUpperCase(java.util.Locale.ROOT);
        if (!words.contains(v)) {
            throw new IllegalArgumentException(s.env + " must be one of " + words + ", got '" + get(s) + "'");
        }
        return v;
    }

    /** Base64 bytes of at least {@code minBytes}, from a secret. */
    public byte[] base64Secret(Setting s, Setting file, int minBytes) {
        String v = secret(s, file);
        if (v == null) {
            return null;
        }
        byte[] b;
        try {
            b = Base64.getDecoder().decode(v);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(s.env + " must be base64");
        }
        if (b.length < minBytes) {
            throw new IllegalArgumentException(
                    s.env + " must hold at least " + minBytes + " bytes, it holds " + b.length);
        }
        return b;
    }

    /** Comma-separated values, empty when unset. */
    public List<String> list(Setting s) {
        String v = get(s);
        if (v == null) {
            return List.of();
        }
        return java.util.Arrays.stream(v.split(","))
                .map(String::strip)
                .filter(x -> !x.isEmpty())
                .toList();
    }

    /**
     * Kafka client properties for the security settings: nothing for PLAINTEXT; for SASL, SCRAM with
     * the user and password (required); for SSL/SASL_SSL, the truststore when given.
     */
    public Map<String, Object> kafkaSecurity() {
        Map<String, Object> p = new HashMap<>();
        String protocol =
                oneOf(Setting.KAFKA_SECURITY_PROTOCOL, List.of("PLAINTEXT", "SASL_PLAINTEXT", "SASL_SSL", "SSL"));
        p.put("security.protocol", protocol);
        if (protocol.startsWith("SASL")) {
            String mechanism = oneOf(Setting.KAFKA_SASL_MECHANISM, List.of("SCRAM-SHA-256", "SCRAM-SHA-512"));
            String user = required(Setting.KAFKA_USERNAME);
            String password = secret(Setting.KAFKA_PASSWORD, Setting.KAFKA_PASSWORD_FILE);
            if (password == null) {
                throw new IllegalArgumentException(
                        Setting.KAFKA_PASSWORD.env + " (or " + Setting.KAFKA_PASSWORD_FILE.env + ") is required with "
                                + Setting.KAFKA_SECURITY_PROTOCOL.env + "=" + protocol);
            }
            p.put("sasl.mechanism", mechanism);
            p.put("sasl.jaas.config", scramJaas(user, password));
        }
        if (protocol.endsWith("SSL") && isSet(Setting.KAFKA_TRUSTSTORE)) {
            p.put("ssl.truststore.location", get(Setting.KAFKA_TRUSTSTORE));
            p.put("ssl.truststore.type", "PKCS12");
            String password = secret(Setting.KAFKA_TRUSTSTORE_PASSWORD, Setting.KAFKA_TRUSTSTORE_PASSWORD_FILE);
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
            boolean secret = Setting.byName(k).map(Setting::secret).orElse(true);
            sb.append(sb.length() > 1 ? ", " : "").append(k).append('=').append(secret ? "***" : values.get(k));
        });
        return sb.append('}').toString();
    }
}
