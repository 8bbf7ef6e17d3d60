package org.electorallog.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

/**
 * The report says how each burst found the projector and, when its file records it, whether
 * PostgreSQL's shared memory was in huge pages (decision 82); files from before that say nothing of it.
 */
class BurstDescriptionTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aRestartedBurstSaysItsWarmUpAndHugePages() {
        ObjectNode burst = burst(50_000, 20_000, true);
        burst.putObject("huge_pages").put("postgresql_status", "on");
        assertEquals(
                "restarted seconds before in a JVM of its own, after a warm-up on 20,000 statements, PostgreSQL "
                        + "running (50,000 votes projected before the restart), PostgreSQL's shared memory in huge "
                        + "pages: on",
                ReportWriter.projectorBefore(burst));
    }

    @Test
    void aWarmedBurstSaysHugePagesOff() {
        ObjectNode burst = burst(50_000, 20_000, false);
        burst.putObject("huge_pages").put("postgresql_status", "off");
        assertEquals(
                "warmed by 50,000 votes, PostgreSQL's shared memory in huge pages: off",
                ReportWriter.projectorBefore(burst));
    }

    @Test
    void anOlderFileSaysNothingOfHugePages() {
        assertEquals(
                "started seconds before, after a warm-up on 500 statements",
                ReportWriter.projectorBefore(burst(0, 500, false)));
    }

    private static ObjectNode burst(long warmUpVotes, long warmUpStatements, boolean restarted) {
        ObjectNode b = JSON.createObjectNode();
        b.put("warm_up_votes", warmUpVotes);
        b.put("projector_warm_up_statements", warmUpStatements);
        b.put("projector_restarted", restarted);
        return b;
    }
}
