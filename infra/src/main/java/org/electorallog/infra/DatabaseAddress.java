package org.electorallog.infra;

/** How to reach a PostgreSQL database: a JDBC URL and credentials. */
public record DatabaseAddress(String jdbcUrl, String user, String password) {
    @Override
    public String toString() {
        return "DatabaseAddress[" + jdbcUrl + ", user=" + user + "]";
    }
}
