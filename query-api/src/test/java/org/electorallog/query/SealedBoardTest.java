package org.electorallog.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.SignedNote;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.schemas.avro.StatementKind;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A sealed board as the query API shows it (issue 42): {@code GET /boards/{board}} and
 * {@code GET /boards} carry the seal (size, root, record, time), open boards none; the board's
 * latest checkpoint is at the sealed size, and the statement published after the seal is not on it.
 */
class SealedBoardTest {
    static final String BOARD = "api-sealed";
    static final int BEFORE = 3;

    @BeforeAll
    static void load() throws Exception {
        QueryApiTest.load();
    }

    /** Three cast votes, the seal, and one more vote the projector refuses: for {@link QueryApiTest#load()}. */
    static List<Statement> statements() {
        List<Statement> out = new ArrayList<>();
        for (int i = 0; i <= BEFORE; i++) {
            boolean seal = i == BEFORE;
            out.add(Statement.newBuilder()
                    .setBoard(BOARD)
                    .setDeliveryId(seal ? "seal:" + BOARD : "sealed-vote-" + i)
                    .setKind(seal ? StatementKind.BOARD_SEALED : StatementKind.CAST_VOTE)
                    .setStatementTimestamp(4_000_000 + i)
                    .setSenderName(seal ? "back-office" : "voting-service")
                    .setSenderPublicKey(ByteBuffer.wrap(new byte[32]))
                    .setElectionId("e1")
                    .build());
        }
        out.add(Statement.newBuilder(out.get(0)).setDeliveryId("after-the-seal").build());
        return out;
    }

    @Test
    void theBoardStateCarriesTheSeal() throws Exception {
        JsonNode board =
                QueryApiTest.JSON.readTree(QueryApiTest.get("/boards/" + BOARD).body());
        assertEquals(
                BEFORE + 1, board.get("size").asLong(), "the seal is the last record; the later vote is not on it");
        JsonNode seal = board.get("sealed");
        assertEquals(BEFORE + 1, seal.get("size").asLong());
        assertEquals(BEFORE, seal.get("record").asLong());
        assertEquals(board.get("root").asText(), seal.get("root").asText());
        assertTrue(seal.get("at").asText().endsWith("Z"), seal.toString());

        JsonNode record =
                QueryApiTest.JSON.readTree(QueryApiTest.get("/boards/" + BOARD + "/records/" + BEFORE, Role.OBSERVER)
                        .body());
        assertEquals("BOARD_SEALED", record.get("kind").asText());

        String note = QueryApiTest.get("/boards/" + BOARD + "/checkpoint").body();
        Checkpoint cp = Checkpoint.parse(SignedNote.parse(note).text());
        assertEquals(BEFORE + 1, cp.size(), "the latest checkpoint is at the sealed size");

        JsonNode open = QueryApiTest.JSON.readTree(
                QueryApiTest.get("/boards/" + QueryApiTest.BOARD).body());
        assertTrue(open.get("sealed").isNull(), open.toString());
        boolean listed = false;
        for (JsonNode b :
                QueryApiTest.JSON.readTree(QueryApiTest.get("/boards").body()).get("boards")) {
            if (b.get("board").asText().equals(BOARD)) {
                listed = b.get("sealed").get("size").asLong() == BEFORE + 1;
            }
        }
        assertTrue(listed, "GET /boards shows the seal too");
        assertEquals(404, QueryApiTest.get("/boards/no-such-board").statusCode());
    }
}
