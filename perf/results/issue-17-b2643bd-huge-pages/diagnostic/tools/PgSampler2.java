import java.nio.file.*; import java.sql.*; import java.util.regex.*; import java.io.*;
public class PgSampler2 {
  public static void main(String[] a) throws Exception {
    Path log = Path.of(a[0]); PrintWriter out = new PrintWriter(new FileWriter(a[1]));
    String url = null; Pattern p = Pattern.compile("(jdbc:postgresql://127.0.0.1:[0-9]+/postgres)");
    long dl = System.currentTimeMillis() + 600_000;
    while (url == null && System.currentTimeMillis() < dl) {
      if (Files.exists(log)) { Matcher m = p.matcher(Files.readString(log)); if (m.find()) url = m.group(1); }
      Thread.sleep(200);
    }
    System.out.println("url " + url);
    Connection c = null;
    while (c == null) { try { c = DriverManager.getConnection(url, "postgres", ""); } catch (SQLException e) { Thread.sleep(200);} }
    PreparedStatement ps = c.prepareStatement("SELECT clock_timestamp()::time, pid, backend_type, state, coalesce(wait_event_type,'-'), coalesce(wait_event,'-'), left(regexp_replace(query,'\\s+',' ','g'),50), coalesce(application_name,'') FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND (state = 'active' OR backend_type <> 'client backend') AND backend_type NOT IN ('archiver','logical replication launcher')");
    PreparedStatement wal = c.prepareStatement("SELECT clock_timestamp()::time, wal_records, wal_fpi, wal_bytes FROM pg_stat_wal");
    PreparedStatement bg = c.prepareStatement("SELECT sum(writes), sum(reads), sum(extends), sum(fsyncs) FROM pg_stat_io");
    long end = System.currentTimeMillis() + Long.parseLong(a[2]) * 1000;
    int n = 0;
    while (System.currentTimeMillis() < end) {
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          String bt = rs.getString(3), st = rs.getString(4), we = rs.getString(6);
          if (!"active".equals(st) && ("-".equals(we) || we.endsWith("Main") || we.equals("WalWriterMain"))) continue;
          out.println(rs.getString(1)+" "+rs.getInt(2)+" "+bt+" "+rs.getString(8)+" "+st+" "+rs.getString(5)+"/"+we+" | "+rs.getString(7));
        }
        if (n++ % 5 == 0) {
          try (ResultSet w = wal.executeQuery()) { w.next(); out.println(w.getString(1)+" WAL records="+w.getLong(2)+" fpi="+w.getLong(3)+" bytes="+w.getLong(4)); }
          try (ResultSet w = bg.executeQuery()) { w.next(); out.println("   IO writes="+w.getLong(1)+" reads="+w.getLong(2)+" extends="+w.getLong(3)+" fsyncs="+w.getLong(4)); }
        }
      } catch (SQLException e) { out.println("ERR " + e.getMessage()); Thread.sleep(200); }
      out.flush(); Thread.sleep(20);
    }
    out.close();
  }
}
