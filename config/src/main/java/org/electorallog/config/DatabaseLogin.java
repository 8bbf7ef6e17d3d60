package org.electorallog.config;

/** How to reach a PostgreSQL database: a JDBC URL and credentials. */
public record DatabaseLogin(String jdbcUrl, String user, String password) {
    /**
     * The projection's login as the configuration gives it to every process: {@link
     * Setting#JDBC_URL} (required), {@link Setting#DB_USER}, {@link Setting#DB_PASSWORD} or its
     * file (empty when unset).
     */
    public static DatabaseLogin of(Configuration conf) {
        String password = conf.secret(Setting.DB_PASSWORD);
        return new DatabaseLogin(
                conf.required(Setting.JDBC_URL), conf.get(Setting.DB_USER), password == null ? "" : password);
    }

    /**
     * Database {@code name} on the same server with the same credentials: the URL's path (the text
     * after its last '/' before any '?') replaced, its parameters kept.
     */
    public DatabaseLogin onDatabase(String name) {
        int q = jdbcUrl.indexOf('?');
        String base = q < 0 ? jdbcUrl : jdbcUrl.substring(0, q);
        String params = q < 0 ? "" : jdbcUrl.substring(q);
        return new DatabaseLogin(base.substring(0, base.lastIndexOf('/') + 1) + name + params, user, password);
    }

    /** The same credentials at another JDBC URL (a rebuild's target, a standby). */
    public DatabaseLogin atUrl(String url) {
        return new DatabaseLogin(url, user, password);
    }

    @Override
    public String toString() {
        return "DatabaseLogin[" + jdbcUrl + ", user=" + user + "]";
    }
}
