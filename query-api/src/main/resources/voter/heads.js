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
    throw new NotVerified('the checkpoint the server gave is of ' + cp.origin + ', not of board ' + board);
  }
  const headsOrigin = cp.origin.slice(0, cp.origin.lastIndexOf('/') + 1) + 'heads';
  const headsNote = parseNote(link.heads_checkpoint);
  const heads = parseCheckpoint(headsNote.text);
  if (heads.origin !== headsOrigin) {
    throw new NotVerified('the heads checkpoint is of ' + heads.origin + ', not of this log\'s heads board ' + headsOrigin);
  }
  const headsSigners = await checkLogSignature(headsNote, logKeys);
  step(true, 'The checkpoint of ' + cp.origin + ' at ' + cp.size + ' records is signed by the log key ' +
    boardSigners.join(', ') + '.');
  const cos = await checkCosignatures(headsNote, witnessKeys);
  if (cos.valid.length < quorum) {
    throw new NotVerified('only ' + cos.valid.length + ' of the ' + witnessKeys.length + ' witnesses you trust cosigned the ' +
      'heads checkpoint, and ' + quorum + ' must' + (cos.invalid.length ? ' (cosignatures that do not verify: ' +
      cos.invalid.join(', ') + ')' : '') + ': the log may be showing you a view the witnesses did not see');
  }
  const entry = b64decode(link.entry);
  const leaf = await sha256(new Uint8Array([0]), entry);
  const root = await rootFromInclusion(BigInt(link.entry_index), heads.size, leaf, link.hashes.map(b64decode));
  if (!equal(root, heads.root)) {
    throw new NotVerified('the inclusion proof of heads entry ' + link.entry_index + ' does not lead to the cosigned heads root');
  }
  const e = readStatement(entry);
  if (e.board !== 'heads' || e.kind !== 'LOG_CHECKPOINT' || !e.body) {
    throw new NotVerified('heads entry ' + link.entry_index + ' is not a LOG_CHECKPOINT of the heads board');
  }
  if (e.body.origin !== cp.origin || e.body.size !== cp.size || !(e.body.root instanceof Uint8Array) ||
      !equal(e.body.root, cp.root)) {
    throw new NotVerified('heads entry ' + link.entry_index + ' names ' + e.body.origin + ' at ' + e.body.size +
      ', not the checkpoint of ' + cp.origin + ' at ' + cp.size + ' with its root');
  }
  if (!(e.sender_public_key instanceof Uint8Array) || !logKeys.some((k) => equal(k.pub, e.sender_public_key))) {
    throw new NotVerified('heads entry ' + link.entry_index + ' was not sent by the log\'s key: it is not the head writer\'s');
  }
  step(true, 'That checkpoint is entry ' + link.entry_index + ' of the heads board ' + headsOrigin + ', in its tree of ' +
    heads.size + ' entries signed by the log key ' + headsSigners.join(', ') + ': the entry names this board\'s size and root, ' +
    'and its inclusion proof leads to the heads root (RFC 9162).');
  step(true, quorum === 0
    ? 'No witness cosignature was required (quorum 0): you rely on the log\'s signature alone.'
    : cos.valid.length + ' of ' + witnessKeys.length + ' witnesses cosigned the heads checkpoint (quorum ' + quorum + '), ' +
      'which vouches for every board\'s checkpoint entered in it: ' +
      cos.valid.map((w) => w.name + ' at ' + w.time.toISOString()).join(', ') + '.');
  return cp;
}
