package org.electorallog.config;

/** How to reach a PostgreSQL database: a JDBC URL and credentials. */
public record DatabaseLogin(String jdbcUrl, String user, String password) {
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

    @Override
    public String toString() {
        return "DatabaseLogin[" + jdbcUrl + ", user=" + user + "]";
    }
}
