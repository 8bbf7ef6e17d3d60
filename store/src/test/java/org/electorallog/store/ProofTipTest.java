package org.electorallog.store;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Set;
import org.electorallog.core.TileKey;
import org.electorallog.core.TileLayout;
import org.electorallog.core.TileSource;
import org.junit.jupiter.api.Test;

/** The tiles one proof statement read, as a proof's source: only the paths the statement read. */
class ProofTipTest {
    private static final BoardTip TIP = new BoardTip(new BoardRow((short) 1, "b", "o"), 70_000, null, "");

    @Test
    void aProofReadsTheTilesOnItsPaths() {
        ProofTip t = new ProofTip(TIP, Map.of(new TileKey(0, 0), new byte[32]));
        TileSource source = t.source(70_000, 5);
        Map<TileKey, byte[]> read = source.readTiles(TileLayout.pathTiles(70_000, 5));
        assertSame(t.tiles(), read);
    }

    @Test
    void aTileOutsideThePathsIsABoundErrorNamingTheTile() {
        ProofTip t = new ProofTip(TIP, Map.of());
        TileSource source = t.source(70_000, 5);
        IllegalStateException e = assertThrows(
                IllegalStateException.class, () -> source.readTiles(Set.of(new TileKey(0, 0), new TileKey(0, 100))));
        assertTrue(e.getMessage().contains("TileKey[level=0, index=100]"), e.getMessage());
        assertTrue(
                e.getMessage().contains("asked for tiles [TileKey[level=0, index=100]] outside the paths"),
                e.getMessage());
    }
}
