// The voter page's proof from a static publication (issue 45 item 1): when the page is served from
// the directory `electoral-log publish-tiles --voter-page` writes (behind nginx or a CDN, no query
// API), it reads the board's checkpoint and hash tiles beside it (C2SP tlog-tiles) and builds the
// record's inclusion proof itself: RFC 6962 section 2.1.1 PATH(m, D[n]) as leaf ranges, each range's
// hash folded from the perfect subtrees it splits into, each subtree's hash from the bottom row of the
// tile that holds it. A partial tile that is gone (its full tile replaced it) is read from the full
// tile's prefix, as tlog-tiles says. Uses the functions of voter.js (the checkpoint's checks, the
// inclusion proof's fold, the steps and the result), which calls checkFromPublication.
'use strict';

/** C2SP tlog-tiles path of tile (level, index) at width (256 = full): tile/<L>/x001/x234/067[.p/<W>]. */
function tilePath(level, index, width) {
  let rest = Math.floor(index / 1000);
  let path = String(index % 1000).padStart(3, '0');
  while (rest > 0) {
    path = 'x' + String(rest % 1000).padStart(3, '0') + '/' + path;
    rest = Math.floor(rest / 1000);
  }
  return 'tile/' + level + '/' + path + (width < 256 ? '.p/' + width : '');
}

/** The width of tile (level, index) in a tree of {@code size} leaves (0 when it has none). */
function tileWidth(level, index, size) {
  const atLevel = Math.floor(size / 256 ** level);
  const full = Math.floor(atLevel / 256);
  if (index < full) return 256;
  return index > full ? 0 : atLevel % 256;
}

/** The largest power of two below n (n > 1): RFC 6962's split point. */
function splitPoint(n) {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** PATH(m, D[start:end]) as ranges [a, b), bottom up. */
function pathRanges(m, start, end, out) {
  const n = end - start;
  if (n === 1) return out;
  const k = splitPoint(n);
  if (m < k) {
    pathRanges(m, start, start + k, out);
    out.push([start + k, end]);
  } else {
    pathRanges(m - k, start + k, end, out);
    out.push([start, start + k]);
  }
  return out;
}

/** Reads the published tiles of one board as of one tree size, each once. */
class PublishedTree {
  constructor(base, size) {
    this.base = base;
    this.size = size;
    this.tiles = new Map();
  }

  async tile(level, index) {
    const key = level + '/' + index;
    if (!this.tiles.has(key)) {
      const width = tileWidth(level, index, this.size);
      let r = await fetch(this.base + '/' + tilePath(level, index, width), { cache: 'no-store', credentials: 'omit' });
      let bytes;
      if (r.status === 404 && width < 256) {
        // the tree has grown past this partial tile since the checkpoint was read: the full tile's prefix
        r = await fetchOk(this.base + '/' + tilePath(level, index, 256));
        bytes = new Uint8Array(await r.arrayBuffer()).slice(0, width * 32);
      } else {
        if (!r.ok) throw new NotVerified('err.tiles.answered', { status: String(r.status), tile: tilePath(level, index, width) });
        bytes = new Uint8Array(await r.arrayBuffer());
      }
      if (bytes.length !== width * 32) throw new NotVerified('err.tiles.size', { tile: tilePath(level, index, width), hashes: msg('count.hashes', { n: width }) });
      this.tiles.set(key, bytes);
    }
    return this.tiles.get(key);
  }

  /** The hash of the perfect subtree of height h whose first leaf is {@code first}. */
  async node(h, first) {
    const level = Math.floor(h / 8);
    const r = h % 8;
    const at = first / 256 ** level; // its first hash in the bottom row of tile level `level`
    const tile = await this.tile(level, Math.floor(at / 256));
    let row = [];
    for (let i = 0; i < 2 ** r; i++) row.push(tile.slice(((at % 256) + i) * 32, ((at % 256) + i + 1) * 32));
    while (row.length > 1) {
      const up = [];
      for (let i = 0; i < row.length; i += 2) up.push(await sha256(new Uint8Array([1]), row[i], row[i + 1]));
      row = up;
    }
    return row[0];
  }

  /** MTH(D[a:b]): the range's perfect subtrees, left to right, folded from the right. */
  async rangeHash(a, b) {
    const nodes = [];
    let start = a;
    while (start < b) {
      let w = 1;
      while (start % (w * 2) === 0 && start + w * 2 <= b) w *= 2;
      nodes.push([Math.log2(w), start]);
      start += w;
    }
    let acc = await this.node(...nodes[nodes.length - 1]);
    for (let i = nodes.length - 2; i >= 0; i--) acc = await sha256(new Uint8Array([1]), await this.node(...nodes[i]), acc);
    return acc;
  }

  /** Record {@code index}'s leaf hash and its inclusion proof in this tree. */
  async proof(index) {
    const leaf = await this.node(0, index);
    const hashes = [];
    for (const [a, b] of pathRanges(index, 0, this.size, [])) hashes.push(await this.rangeHash(a, b));
    return { leaf, hashes };
  }
}

/**
 * Served from a static publication (tiles.js): the board's files are at `<data-tiles>/<board>/`.
 * Undefined when the query API serves the page.
 */
const TILES = document.body.dataset.tiles;

/**
 * Served by a mirror (C2SP tlog-mirror, `electoral-log mirror --voter-page`): a board's copy is at
 * `/<hex SHA-256 of this prefix and the board's name>/`, its origin's hash. Undefined elsewhere.
 */
const ORIGIN_PREFIX = document.body.dataset.originPrefix;

/** Where the board's files are: beside the page in a publication, under its origin's hash on a mirror. */
async function boardFiles(board) {
  if (ORIGIN_PREFIX !== undefined) return '/' + hex(await sha256(te.encode(ORIGIN_PREFIX + board)));
  return TILES + '/' + encodeURIComponent(board);
}

/** The check against a static publication: its checkpoint, then the record's proof built from its tiles. */
async function checkFromPublication(board, receipt, logKeys, witnessKeys, quorum) {
  if (!receipt || !receipt.id) {
    throw new NotVerified('err.tiles.needsNumber');
  }
  const base = await boardFiles(board);
  // HEADS witness mode: the publisher writes the board's heads link beside its checkpoint (heads.js checks it)
  let cp = null;
  if (quorum > 0) {
    const linked = await fetch(base + '/heads-link', { cache: 'no-store', credentials: 'omit' });
    if (linked.ok) cp = await checkHeadsLink(board, await linked.json(), logKeys, witnessKeys, quorum);
  }
  if (cp === null) {
    cp = await checkCheckpointNote(await (await fetchOk(base + '/checkpoint')).text(), logKeys, witnessKeys, quorum);
  }
  const index = Number(receipt.id);
  if (!(index < Number(cp.size))) {
    throw new NotVerified('err.tiles.notPublished', { index: String(index), size: msg('count.records', { n: cp.size }) });
  }
  const tree = new PublishedTree(base, Number(cp.size));
  const proof = await tree.proof(index);
  const root = await rootFromInclusion(BigInt(index), cp.size, proof.leaf, proof.hashes);
  if (!equal(root, cp.root)) {
    throw new NotVerified('err.tiles.root.' + (quorum > 0 ? 'cosigned' : 'signed'));
  }
  step(true,
    msg('step.included.published.' + (quorum > 0 ? 'cosigned' : 'signed'), {
      index: String(index), leaf: b64encode(proof.leaf), size: msg('count.records', { n: cp.size }),
      hashes: msg('count.hashes', { n: proof.hashes.length }),
    }),
    msg('step.compareReceipt'));
  verdict(quorum < 1 ? 'unwitnessed' : 'verified', [String(index)], board, true);
}
