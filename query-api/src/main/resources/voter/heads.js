// The voter page's check through the heads board (docs/witnesses.md "One witness round for every
// board"). In HEADS witness mode the witnesses cosign only the heads board, whose entries are the
// other boards' checkpoints. The page checks, in the browser, the chain of GET
// /boards/{board}/heads-link:
//   1. the board's checkpoint C is signed by a trusted log key and is of this board;
//   2. the heads checkpoint H is signed by a trusted log key, has the heads origin beside C's (the
//      same prefix, then "heads"), and at least `quorum` trusted witnesses cosigned it;
//   3. the heads entry E's leaf hash (SHA-256 of 0x00 and E) is in H: its inclusion proof leads to
//      H's root (RFC 9162 section 2.1.3.2);
//   4. E is a LOG_CHECKPOINT statement of board "heads" naming C's origin, size and root, sent by
//      the log's key (the head writer signs with it and the projector takes heads entries from no
//      other: core HeadsBoard, LogStatements, decision 130).
// The record is then checked against C as without the heads board. Uses the functions of voter.js
// and readStatement of personal.js.
'use strict';

/**
 * Checks a heads link and returns the board's checkpoint C, whose records the witnesses vouch for
 * through the heads board; adds a step for each link. Throws NotVerified.
 */
async function checkHeadsLink(board, link, logKeys, witnessKeys, quorum) {
  const boardNote = parseNote(link.checkpoint);
  const cp = parseCheckpoint(boardNote.text);
  const boardSigners = await checkLogSignature(boardNote, logKeys);
  if (cp.origin.slice(cp.origin.lastIndexOf('/') + 1) !== board) {
    throw new NotVerified('err.heads.otherBoard', { origin: cp.origin, board });
  }
  const headsOrigin = cp.origin.slice(0, cp.origin.lastIndexOf('/') + 1) + 'heads';
  const headsNote = parseNote(link.heads_checkpoint);
  const heads = parseCheckpoint(headsNote.text);
  if (heads.origin !== headsOrigin) {
    throw new NotVerified('err.heads.origin', { origin: heads.origin, heads: headsOrigin });
  }
  const headsSigners = await checkLogSignature(headsNote, logKeys);
  step(true, msg('step.signed', { origin: cp.origin, size: msg('count.records', { n: cp.size }), keys: boardSigners }));
  const cos = await checkCosignatures(headsNote, witnessKeys);
  if (!quorumMet(cos, quorum)) throw shortOfQuorum('err.heads', cos, witnessKeys, quorum);
  const entry = b64decode(link.entry);
  const leaf = await sha256(new Uint8Array([0]), entry);
  const root = await rootFromInclusion(BigInt(link.entry_index), heads.size, leaf, link.hashes.map(b64decode));
  if (!equal(root, heads.root)) {
    throw new NotVerified('err.heads.root', { entry: String(link.entry_index) });
  }
  const e = readStatement(entry);
  if (e.board !== 'heads' || e.kind !== 'LOG_CHECKPOINT' || !e.body) {
    throw new NotVerified('err.heads.kind', { entry: String(link.entry_index), kind: msg('kind.LOG_CHECKPOINT') });
  }
  if (e.body.origin !== cp.origin || e.body.size !== cp.size || !(e.body.root instanceof Uint8Array) ||
      !equal(e.body.root, cp.root)) {
    throw new NotVerified('err.heads.names', {
      entry: String(link.entry_index), origin: e.body.origin, size: msg('count.records', { n: e.body.size }),
      cpOrigin: cp.origin, cpSize: msg('count.records', { n: cp.size }),
    });
  }
  if (!(e.sender_public_key instanceof Uint8Array) || !logKeys.some((k) => equal(k.pub, e.sender_public_key))) {
    throw new NotVerified('err.heads.sender', { entry: String(link.entry_index) });
  }
  step(true, msg('step.heads.entry', {
    entry: String(link.entry_index), origin: headsOrigin, size: msg('count.records', { n: heads.size }), keys: headsSigners,
  }));
  step(true, quorum === 0
    ? msg('step.noQuorum')
    : msg('step.heads.cosigned', {
      valid: cos.valid.length, total: msg('count.witnesses', { n: witnessKeys.length }), quorum: quorumText(quorum), cosigners: cosigners(cos),
    }));
  return cp;
}
