package org.electorallog.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code perf rehearse --fault}: which faults a rehearsal tries, and the message for a name it does not know. */
class RehearsalFaultsTest {
    @Test
    void everySizeTriesEveryFaultOfTheScriptByDefault() {
        List<String> all =
                List.of("broker-leader-kill", "projector-kill", "api-kill", "database-path-cut", "primary-failover");
        assertEquals(all, Fault.names());
        assertEquals(all, Rehearsal.full().faults());
        assertEquals(all, Rehearsal.small().faults());
    }

    @Test
    void onlyKeepsTheSizeAndNamesTheFaults() {
        Rehearsal r = Rehearsal.full().only(List.of("broker-leader-kill"));
        assertEquals(List.of("broker-leader-kill"), r.faults());
        assertEquals(Rehearsal.full().boards(), r.boards());
        assertEquals(Rehearsal.full().faultLasts(), r.faultLasts());
    }

    @Test
    void anUnknownFaultIsRefusedNamingTheKnownOnes() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> Rehearsal.small().only(List.of("broker-kill")));
        assertTrue(e.getMessage().contains("no fault named 'broker-kill'"), e.getMessage());
        assertTrue(e.getMessage().contains("broker-leader-kill"), e.getMessage());
    }
}
