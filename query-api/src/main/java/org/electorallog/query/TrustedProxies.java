package org.electorallog.query;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The reverse proxies whose {@code X-Forwarded-For} is believed (ELECTORAL_LOG_TRUSTED_PROXIES):
 * single addresses or CIDR ranges, IPv4 or IPv6 (issue 41). An address is compared by its bytes,
 * so {@code ::1} and {@code 0:0:0:0:0:0:0:1} are one address, and nothing here ever looks a name
 * up: only IP literals are parsed, and a hop that is none is never a trusted proxy.
 */
final class TrustedProxies {
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    /** One range: its network's bytes and the number of leading bits that must match. */
    @SuppressWarnings("ArrayRecordComponent") // a range, never compared as a value
    private record Range(byte[] network, int bits) {
        boolean contains(byte[] address) {
            if (address.length != network.length) {
                return false;
            }
            for (int i = 0; i < bits; i++) {
                int mask = 0x80 >>> (i % 8);
                if ((address[i / 8] & mask) != (network[i / 8] & mask)) {
                    return false;
                }
            }
            return true;
        }
    }

    private final List<Range> ranges;

    private TrustedProxies(List<Range> ranges) {
        this.ranges = List.copyOf(ranges);
    }

    /** Parses the setting's entries; an entry that is no address or range is an error naming it. */
    static TrustedProxies parse(List<String> entries) {
        List<Range> out = new ArrayList<>();
        for (String raw : entries) {
            String e = raw.strip();
            int slash = e.indexOf('/');
            byte[] address = literal(slash < 0 ? e : e.substring(0, slash));
            if (address == null) {
                throw new IllegalArgumentException(
                        "trusted proxy '" + e + "' is not an IP address or CIDR range (10.0.0.0/8, fd00::/8)");
            }
            int bits = address.length * 8;
            if (slash >= 0) {
                String b = e.substring(slash + 1);
                if (!b.matches("\\d{1,3}") || Integer.parseInt(b) > address.length * 8) {
                    throw new IllegalArgumentException(
                            "trusted proxy range '" + e + "' needs a prefix length 0.." + address.length * 8);
                }
                bits = Integer.parseInt(b);
            }
            out.add(new Range(address, bits));
        }
        return new TrustedProxies(out);
    }

    /** Whether {@code address} (as the connection or a forwarded hop gives it) is a trusted proxy. */
    boolean contains(String address) {
        byte[] a = literal(address);
        if (a == null) {
            return false;
        }
        for (Range r : ranges) {
            if (r.contains(a)) {
                return true;
            }
        }
        return false;
    }

    boolean isEmpty() {
        return ranges.isEmpty();
    }

    /** The bytes of an IP literal (an IPv4-mapped IPv6 address as IPv4), or null; never a name lookup. */
    static byte[] literal(String s) {
        String t = s.strip();
        if (t.startsWith("[") && t.endsWith("]")) {
            t = t.substring(1, t.length() - 1);
        }
        boolean v4 = IPV4.matcher(t).matches();
        boolean v6 = t.indexOf(':') >= 0 && t.matches("[0-9A-Fa-f:.%a-zA-Z0-9]+");
        if (!v4 && !v6) {
            return null;
        }
        if (v4) {
            for (String part : t.split("\\.")) {
                if (Integer.parseInt(part) > 255) {
                    return null;
                }
            }
        }
        try {
            return InetAddress.getByName(t).getAddress(); // a literal: parsed, not looked up
        } catch (UnknownHostException | SecurityException e) {
            return null;
        }
    }
}
