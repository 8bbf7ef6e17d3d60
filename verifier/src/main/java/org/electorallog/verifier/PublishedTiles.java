package org.electorallog.verifier;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.ProofBuilder;
import org.electorallog.core.ProofException;
import org.electorallog.core.ProofExtra;
import org.electorallog.core.SignedNote;
import org.electorallog.core.TileSource;
import org.electorallog.core.TlogProof;

/**
 * A board's hash tiles read from its files (a static publication, C2SP tlog-tiles) as a tree of a
 * given size: each tile at the width that size gives it, or, when that partial tile is gone because
 * the tree has since filled it (the publisher removes partial tiles once their full tile exists), the
 * full tile's first hashes, as tlog-tiles tells clients to do.
 */
public final class PublishedTiles {
    private PublishedTiles() {}

    /** The tiles of {@code files} as of tree size {@code size} ({@link TlogFiles#tilesAt}). */
    public static TileSource of(TlogFiles files, long size) {
        return files.tilesAt(size);
    }

    /**
     * The tlog-proof of record {@code record} built from a board's files: its checkpoint as served
     * (with the cosignature lines it carries) and the inclusion proof from its tiles at that size,
     * naming the {@code policy} file published beside the checkpoint when there is one.
     * Nothing is trusted here; the caller verifies the proof.
     */
    public static TlogProof proof(TlogFiles files, long record) throws IOException, ProofException {
        byte[] note = files.get("checkpoint");
        if (note == null) {
            throw new IOException("the publication has no checkpoint");
        }
        String text = new String(note, StandardCharsets.UTF_8);
        long size = Checkpoint.parse(SignedNote.parse(text).text()).size();
        if (record >= size) {
            throw new ProofException("record " + record + " is not in the published checkpoint of size " + size);
        }
        List<byte[]> hashes;
        try {
            hashes = ProofBuilder.inclusion(record, size, of(files, size));
        } catch (ProofBuilder.MissingTileException e) {
            throw new ProofException("the publication lacks a tile the proof needs: " + e.getMessage());
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        byte[] policy = files.get("policy");
        return new TlogProof(
                policy == null
                        ? null
                        : ProofExtra.of(ProofExtra.policyName(new String(policy, StandardCharsets.UTF_8)), null),
                record,
                hashes,
                text);
    }
}
