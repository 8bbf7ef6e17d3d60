package org.electorallog.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

/** The projector's PostgreSQL connection pool. */
public final class ProjectionDatabase {
    private ProjectionDatabase() {}

    public static HikariDataSource pool(String jdbcUrl, String user, String password, int size, String name) {
        HikariConfig hc = new HikariConfig();
        hc.setJdbcUrl(jdbcUrl);
        hc.setUsername(user);
        hc.setPassword(password);
        hc.setMaximumPoolSize(size);
        hc.setMinimumIdle(1);
        hc.setPoolName(name);
        hc.setConnectionTimeout(30_000);
        hc.addDataSourceProperty("reWriteBatchedInserts", "true");
        hc.addDataSourceProperty("tcpKeepAlive", "true");
        return new HikariDataSource(hc);
    }
}
