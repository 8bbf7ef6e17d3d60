package org.electorallog.publisher;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.electorallog.store.HeadLinks;

/**
 * A board's {@code heads-link} file: the JSON of the query API's {@code GET
 * /boards/{board}/heads-link} (its OpenAPI schema {@code HeadsLink}): the board's checkpoint, the
 * heads entry's index and bytes, its inclusion proof, and the cosigned heads checkpoint.
 */
final class HeadLinkFile {
    /** The file's name beside the board's checkpoint. */
    static final String NAME = "heads-link";

    private static final ObjectMapper JSON = new ObjectMapper();

    private HeadLinkFile() {}

    static byte[] json(String board, HeadLinks.Witnessed w) {
        Base64.Encoder b64 = Base64.getEncoder();
        ObjectNode n = JSON.createObjectNode();
        n.put("board", board);
        n.put("checkpoint", w.link().checkpoint().note());
        n.put("entry_index", w.link().entryIndex());
        n.put("entry", b64.encodeToString(w.link().entry()));
        ArrayNode hashes = n.putArray("hashes");
        w.entryProof().inclusion().forEach(h -> hashes.add(b64.encodeToString(h)));
        n.put("heads_checkpoint", w.entryProof().checkpointNote());
        return n.toString().getBytes(StandardCharsets.UTF_8);
    }
}
