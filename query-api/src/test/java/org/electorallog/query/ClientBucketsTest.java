package org.electorallog.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Issue 61 item 9: an IPv6 /64 is one client, and a flood of clients does not make every request sweep. */
class ClientBucketsTest {
    private static final long SECOND = 1_000_000_000L;

    @Test
    void anIpv6NetworkOfSixtyFourBitsIsOneClient() {
        ClientBuckets b = new ClientBuckets(2);
        long t = 0;
        assertEquals(0, b.acquire("2001:db8:1:2::1", t));
        assertEquals(0, b.acquire("2001:db8:1:2:ffff:ffff:ffff:fffe", t), "another host of the same /64");
        assertTrue(b.acquire("[2001:0db8:0001:0002::9]", t) > 0, "the /64's two tokens are spent, however spelled");
        assertEquals(0, b.acquire("2001:db8:1:3::1", t), "the next /64 is another client");
        assertEquals("20010db800010002::/64", ClientBuckets.keyOf("2001:db8:1:2::1%eth0"));
    }

    @Test
    void ipv4IsItsAddressAndAMappedIpv4IsTheSame() {
        ClientBuckets b = new ClientBuckets(1);
        assertEquals(0, b.acquire("198.51.100.1", 0));
        assertTrue(b.acquire("::ffff:198.51.100.1", 0) > 0, "the IPv4-mapped spelling is the same client");
        assertEquals(0, b.acquire("198.51.100.2", 0));
        assertEquals("198.51.100.1", ClientBuckets.keyOf("::ffff:c633:6401"));
        assertEquals("not an address", ClientBuckets.keyOf("not an address"), "a hop that is no literal is its text");
    }

    @Test
    void idleBucketsAreDroppedAtMostOnceASecond() {
        ClientBuckets b = new ClientBuckets(10);
        long t0 = 0;
        for (int i = 0; i <= ClientBuckets.MAX_CLIENTS; i++) {
            b.acquire("10." + (i >> 16) + "." + ((i >> 8) & 0xff) + "." + (i & 0xff), t0);
        }
        assertEquals(ClientBuckets.MAX_CLIENTS + 1, b.clients());
        assertEquals(0, b.sweeps(), "at the limit, not past it");
        long later = t0 + 61 * SECOND;
        b.acquire("192.0.2.1", later); // past the limit: the idle ones go
        assertEquals(1, b.sweeps());
        assertEquals(1, b.clients(), "every bucket idle for over a minute dropped");
        for (int i = 0; i <= ClientBuckets.MAX_CLIENTS; i++) {
            b.acquire("172." + (16 + (i >> 16)) + "." + ((i >> 8) & 0xff) + "." + (i & 0xff), later);
        }
        for (int i = 0; i < 1000; i++) {
            b.acquire("192.0.2.2", later + SECOND / 2);
        }
        assertEquals(1, b.sweeps(), "past the limit again, but within the second of the last sweep: none");
        b.acquire("192.0.2.3", later + 2 * SECOND);
        assertEquals(2, b.sweeps(), "a second later one request sweeps again");
        assertTrue(b.clients() > ClientBuckets.MAX_CLIENTS, "clients active within the minute stay");
    }
}
