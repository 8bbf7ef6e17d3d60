// The voter page's verifier (docs/witnesses.md "The voter page"). Everything that decides whether
// a ballot is verified happens here, in the voter's browser, with WebCrypto: the server only
// supplies data. The rules are the same as `electoral-log verify` (core TlogProof.verify):
//   1. the checkpoint (C2SP tlog-checkpoint) is a signed note (C2SP signed-note) signed by a trusted
//      log key, and no signature by a trusted key fails;
//   2. at least `quorum` of the trusted witnesses cosigned it (C2SP tlog-cosignature, cosignature/v1);
//   3. the inclusion proof leads from the record's leaf hash to the checkpoint's root (RFC 9162
//      section 2.1.3.2), at the checkpoint's size;
//   4. signed in, the voter's own personal values open the commitments in that leaf's statement
//      (personal.js, statements in the committed form).
// In HEADS witness mode the witnesses cosign the heads board instead, and steps 1 and 2 become the
// chain of heads.js: the board's checkpoint, signed, is named by an entry of a heads checkpoint
// that the quorum cosigned. Served from a static publication (no query API), the page builds the
// proof of step 3 itself from the published tiles (tiles.js).
// Any failure shows as a failure; nothing is "verified" unless all of them hold.
'use strict';

const te = new TextEncoder();

/** Thrown for anything that makes the check fail; its message is shown to the voter. */
class NotVerified extends Error {}

function b64decode(s) {
  let bin;
  try {
    bin = atob(s);
  } catch (e) {
    throw new NotVerified('"' + s + '" is not base64');
  }
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function b64encode(bytes) {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}

function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function equal(a, b) {
  if (a.length !== b.length) return false;
  let d = 0;
  for (let i = 0; i < a.length; i++) d |= a[i] ^ b[i];
  return d === 0;
}

async function sha256(...parts) {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', concat(...parts)));
}

async function ed25519Verify(publicKey, signature, message) {
  const key = await crypto.subtle.importKey('raw', publicKey, { name: 'Ed25519' }, false, ['verify']);
  return crypto.subtle.verify({ name: 'Ed25519' }, key, signature, message);
}

/**
 * A verifier key (C2SP signed-note "Verifier keys"): name+hex(key ID)+base64(type || key). The key
 * ID is recomputed, SHA-256(name || "\n" || type || key)[:4], so a key whose ID does not match is
 * refused. type 0x01: an Ed25519 signed-note key; 0x04: an Ed25519 cosignature/v1 key.
 */
async function parseVkey(vkey, type) {
  const parts = vkey.trim().split('+');
  if (parts.length < 3) throw new NotVerified('"' + vkey + '" is not a verifier key (name+id+key)');
  const name = parts[0];
  const id = parts[1];
  const raw = b64decode(parts.slice(2).join('+'));
  if (raw.length !== 33 || raw[0] !== type) {
    throw new NotVerified('"' + vkey + '" is not an Ed25519 ' + (type === 1 ? 'log' : 'witness (cosignature/v1)') + ' key');
  }
  const pub = raw.slice(1);
  const keyId = (await sha256(te.encode(name + '\n'), new Uint8Array([type]), pub)).slice(0, 4);
  if (hex(keyId) !== id) throw new NotVerified('the key ID of "' + vkey + '" does not match its key');
  return { name, keyId, pub, text: vkey.trim() };
}

/** A signed note: its text (up to and including the newline before the blank line) and signature lines. */
function parseNote(note) {
  const split = note.lastIndexOf('\n\n');
  if (split < 0 || !note.endsWith('\n')) throw new NotVerified('the checkpoint is not a signed note');
  const text = note.slice(0, split + 1);
  const signatures = note
    .slice(split + 2, -1)
    .split('\n')
    .map((line) => {
      const m = /^\u2014 (\S+) (\S+)$/.exec(line);
      if (!m) throw new NotVerified('the checkpoint has a malformed signature line: ' + line);
      const blob = b64decode(m[2]);
      if (blob.length < 5) throw new NotVerified('a signature line of the checkpoint is too short');
      return { name: m[1], keyId: blob.slice(0, 4), signature: blob.slice(4) };
    });
  return { text, signatures };
}

/** C2SP tlog-checkpoint: origin, decimal size, base64 root hash, then optional extension lines. */
function parseCheckpoint(text) {
  const lines = text.split('\n');
  if (lines.length < 4 || !/^(0|[1-9][0-9]*)$/.test(lines[1])) throw new NotVerified('the checkpoint body is malformed');
  const root = b64decode(lines[2]);
  if (root.length !== 32) throw new NotVerified('the checkpoint root is not a 32-byte hash');
  return { origin: lines[0], size: BigInt(lines[1]), root };
}

/** Rule 1: a trusted log key signed the note, and every signature by a trusted key verifies. */
async function checkLogSignature(note, logKeys) {
  const message = te.encode(note.text);
  const signedBy = [];
  for (const sig of note.signatures) {
    for (const k of logKeys) {
      if (sig.name === k.name && equal(sig.keyId, k.keyId)) {
        if (sig.signature.length !== 64 || !(await ed25519Verify(k.pub, sig.signature, message))) {
          throw new NotVerified('the signature by the log key ' + k.text + ' on the checkpoint does not verify');
        }
        signedBy.push(k.text);
      }
    }
  }
  if (signedBy.length === 0) {
    throw new NotVerified('the checkpoint is not signed by the log key you trust (' + logKeys.map((k) => k.text).join(', ') +
      '): it may come from another log, or the server uses a key that was not published');
  }
  return signedBy;
}

/** Rule 2: the witnesses whose cosignature/v1 on the note verifies, with the time each one cosigned. */
async function checkCosignatures(note, witnessKeys) {
  const valid = [];
  const invalid = [];
  for (const w of witnessKeys) {
    const sig = note.signatures.find((s) => s.name === w.name && equal(s.keyId, w.keyId));
    if (!sig) continue;
    if (sig.signature.length !== 72) {
      invalid.push(w.name);
      continue;
    }
    const view = new DataView(sig.signature.buffer, sig.signature.byteOffset, 8);
    const time = view.getBigUint64(0);
    const message = concat(te.encode('cosignature/v1\ntime ' + time.toString() + '\n'), te.encode(note.text));
    if (await ed25519Verify(w.pub, sig.signature.slice(8), message)) {
      valid.push({ name: w.name, time: new Date(Number(time) * 1000) });
    } else {
      invalid.push(w.name);
    }
  }
  return { valid, invalid };
}

/** Rule 3, RFC 9162 section 2.1.3.2: the root the inclusion proof leads to from the leaf hash. */
async function rootFromInclusion(index, size, leafHash, proof) {
  if (index >= size) throw new NotVerified('record ' + index + ' is not within the checkpoint of size ' + size);
  let fn = index;
  let sn = size - 1n;
  let r = leafHash;
  const node = new Uint8Array([1]);
  for (const p of proof) {
    if (sn === 0n) throw new NotVerified('the inclusion proof is longer than the tree allows');
    if ((fn & 1n) === 1n || fn === sn) {
      r = await sha256(node, p, r);
      if ((fn & 1n) === 0n) {
        while ((fn & 1n) === 0n && fn !== 0n) {
          fn >>= 1n;
          sn >>= 1n;
        }
      }
    } else {
      r = await sha256(node, r, p);
    }
    fn >>= 1n;
    sn >>= 1n;
  }
  if (sn !== 0n) throw new NotVerified('the inclusion proof is shorter than the tree needs');
  return r;
}

async function fetchOk(url, headers) {
  const r = await fetch(url, { headers: headers || {}, cache: 'no-store', credentials: 'omit' });
  if (!r.ok) {
    let detail = '';
    try {
      const p = await r.json();
      detail = p.detail || p.title || '';
    } catch (e) {
      detail = '';
    }
    throw new NotVerified('the server answered ' + r.status + ' for ' + url + (detail ? ': ' + detail : ''));
  }
  return r;
}

function receiptOf(value) {
  const v = value.trim();
  if (v === '') return null;
  if (/^(0|[1-9][0-9]*)$/.test(v)) return { id: v };
  let bytes;
  if (/^[0-9a-fA-F]{64}$/.test(v)) {
    bytes = new Uint8Array(v.match(/../g).map((h) => parseInt(h, 16)));
  } else {
    bytes = b64decode(v.replace(/-/g, '+').replace(/_/g, '/'));
  }
  if (bytes.length !== 32) throw new NotVerified('a leaf hash is 32 bytes (64 hex digits or 44 base64 characters)');
  return { leafHash: bytes };
}

const $ = (id) => document.getElementById(id);

function lines(textarea) {
  return $(textarea).value.split('\n').map((l) => l.trim()).filter((l) => l !== '');
}

function step(ok, html) {
  const li = document.createElement('li');
  li.className = ok ? 'ok' : 'bad';
  li.textContent = html;
  $('steps').appendChild(li);
}

function show(state, verdict, meaning) {
  const result = $('result');
  result.hidden = false;
  result.dataset.state = state;
  $('verdict').textContent = verdict;
  $('meaning').textContent = meaning;
}

/** Checks one record against the already verified checkpoint. */
async function checkRecord(board, cp, receipt, headers, witnessed) {
  const base = '/boards/' + encodeURIComponent(board);
  const url = receipt.leafHash
    ? base + '/proof?leaf_hash=' + encodeURIComponent(b64encode(receipt.leafHash)) + '&size=' + cp.size
    : base + '/records/' + receipt.id + '/proof?size=' + cp.size;
  const response = await fetch(url, { headers: headers || {}, cache: 'no-store', credentials: 'omit' });
  if (response.status === 400) {
    const problem = await response.json().catch(() => ({}));
    if (/is not in the tree of size/.test(problem.detail || '')) {
      throw new NotVerified((receipt.id ? 'record ' + receipt.id : 'your ballot') + ' is not in the latest checkpoint ' +
        (witnessed ? 'the witnesses cosigned' : 'the log signed') + ' (' + cp.size + ' records): if you voted in the last minute, ' +
        'check again shortly, as checkpoints follow within seconds; otherwise check the number on your receipt');
    }
  }
  const proof = await (response.ok ? response : await fetchOk(url, headers)).json();
  if (BigInt(proof.size) !== cp.size) throw new NotVerified('the proof is for size ' + proof.size + ', not the checkpoint\'s ' + cp.size);
  const leaf = b64decode(proof.leaf_hash);
  if (receipt.leafHash && !equal(leaf, receipt.leafHash)) throw new NotVerified('the proof is for another leaf hash than your receipt\'s');
  const root = await rootFromInclusion(BigInt(proof.index), cp.size, leaf, proof.hashes.map(b64decode));
  if (!equal(root, cp.root)) {
    throw new NotVerified('the inclusion proof of record ' + proof.index + ' does not lead to the root ' +
      (witnessed ? 'the witnesses cosigned' : 'the log signed') + ': ' +
      'the server\'s proof is wrong, or the record is not in this log');
  }
  step(true, 'Record ' + proof.index + ' (leaf hash ' + b64encode(leaf) + ') is in the tree of ' + cp.size +
    ' records: its inclusion proof of ' + proof.hashes.length + ' hashes leads to the ' + (witnessed ? 'cosigned' : 'signed') + ' root (RFC 9162).' +
    (receipt.leafHash ? ' The leaf hash is the one on your receipt.' : ' Compare the leaf hash with your receipt, if you kept one.'));
  return { index: proof.index, leaf };
}

/**
 * Where the keys the check uses came from (issue 41): this server's /voter/trust.json, the link the
 * page was opened with (the fragment, which never reaches any server: how the election authority's
 * own site pins them), or the voter's own typing.
 */
let keySource = 'none';

function keySourceText() {
  switch (keySource) {
    case 'pinned': return 'from the link you opened (its #log_key, #witness_key and #quorum), not from this server';
    case 'server': return 'from this server (/voter/trust.json): a dishonest server could serve keys of its own, so compare ' +
      'them with the keys the election authority published, or open the authority\'s link, which pins them';
    case 'typed': return 'as you typed them';
    default: return 'from nowhere: none were given';
  }
}

/** The board's own checkpoint, witnessed on its own (BOARDS witness mode) or only signed (quorum 0); adds its steps. */
async function checkBoardCheckpoint(board, logKeys, witnessKeys, quorum) {
  const noteText = await (await fetchOk('/boards/' + encodeURIComponent(board) + '/checkpoint' + (quorum > 0 ? '?witnessed=true' : ''))).text();
  return checkCheckpointNote(noteText, logKeys, witnessKeys, quorum);
}

/** A checkpoint note: its log signature and the quorum of its cosignatures; adds its steps. */
async function checkCheckpointNote(noteText, logKeys, witnessKeys, quorum) {
  const note = parseNote(noteText);
  const cp = parseCheckpoint(note.text);
  const signedBy = await checkLogSignature(note, logKeys);
  step(true, 'The checkpoint of ' + cp.origin + ' at ' + cp.size + ' records is signed by the log key ' + signedBy.join(', ') + '.');
  const cos = await checkCosignatures(note, witnessKeys);
  if (cos.valid.length < quorum) {
    throw new NotVerified('only ' + cos.valid.length + ' of the ' + witnessKeys.length + ' witnesses you trust cosigned the checkpoint, and ' +
      quorum + ' must' + (cos.invalid.length ? ' (cosignatures that do not verify: ' + cos.invalid.join(', ') + ')' : '') +
      ': the log may be showing you a view the witnesses did not see');
  }
  step(true, quorum === 0
    ? 'No witness cosignature was required (quorum 0): you rely on the log\'s signature alone.'
    : cos.valid.length + ' of ' + witnessKeys.length + ' witnesses cosigned it (quorum ' + quorum + '): ' +
      cos.valid.map((w) => w.name + ' at ' + w.time.toISOString()).join(', ') + '.');
  return cp;
}

async function check(event) {
  event.preventDefault();
  $('steps').replaceChildren();
  $('result').hidden = true;
  $('go').disabled = true;
  try {
    const board = $('board').value.trim();
    if (board === '') throw new NotVerified('say which board your ballot is on');
    const token = $('token').value.trim();
    const headers = token ? { Authorization: 'Bearer ' + token } : {};
    const receipt = receiptOf($('receipt').value);
    if (!receipt && !token) throw new NotVerified('give the record number or leaf hash from your receipt, or sign in');
    if (!window.crypto || !crypto.subtle) throw new NotVerified('this browser has no WebCrypto; open the page over HTTPS in a current browser');
    const logKeys = await Promise.all(lines('log-keys').map((k) => parseVkey(k, 1)));
    if (logKeys.length === 0) throw new NotVerified('give the log\'s verifier key');
    const witnessKeys = await Promise.all(lines('witness-keys').map((k) => parseVkey(k, 4)));
    const quorum = Number($('quorum').value || '0');
    if (!Number.isInteger(quorum) || quorum < 0 || quorum > witnessKeys.length) {
      throw new NotVerified('the quorum must be between 0 and the ' + witnessKeys.length + ' witness key(s) given');
    }

    step(true, 'Keys used ' + keySourceText() + ': log key ' + logKeys.map((k) => k.text).join(', ') + '; ' +
      (witnessKeys.length ? 'witness keys ' + witnessKeys.map((k) => k.text).join(', ') : 'no witness key') +
      '; quorum ' + quorum + '.');
    if (TILES !== undefined) {
      await checkFromPublication(board, receipt, logKeys, witnessKeys, quorum);
      return;
    }
    // in HEADS witness mode the witnesses cosign the heads board, which names this board's checkpoint (heads.js)
    let cp = null;
    if (quorum > 0) {
      const linked = await fetch('/boards/' + encodeURIComponent(board) + '/heads-link', { cache: 'no-store', credentials: 'omit' });
      if (linked.ok) cp = await checkHeadsLink(board, await linked.json(), logKeys, witnessKeys, quorum);
    }
    if (cp === null) cp = await checkBoardCheckpoint(board, logKeys, witnessKeys, quorum);

    // the board's state, as the server states it: a sealed board says where voting ended (issue 42)
    const state = await (await fetchOk('/boards/' + encodeURIComponent(board))).json();
    if (state.sealed) {
      step(true, 'Voting closed at ' + state.sealed.size + ' records: this board was sealed at ' + state.sealed.at +
        ' and can no longer change' + (BigInt(state.sealed.size) === cp.size ? '; the checkpoint above is its last.' : '.'));
    }

    const receipts = [];
    if (receipt) {
      receipts.push(receipt);
    } else {
      const election = $('election').value.trim();
      if (election === '') throw new NotVerified('signed in, say which election your ballot was for');
      const ballots = await (await fetchOk('/boards/' + encodeURIComponent(board) + '/ballots?election_id=' +
        encodeURIComponent(election), headers)).json();
      if (ballots.ballots.length === 0) throw new NotVerified('this board holds no ballot of yours');
      ballots.ballots.forEach((b) => receipts.push({ id: String(b.id) }));
    }
    const ids = [];
    for (const r of receipts) {
      const proved = await checkRecord(board, cp, r, headers, quorum > 0);
      ids.push(proved.index);
      if (token) {
        // signed in: the voter's own values, checked against the commitments in the proved leaf (personal.js)
        const record = await (await fetchOk('/boards/' + encodeURIComponent(board) + '/records/' + proved.index, headers)).json();
        step(true, await checkPersonal(record, proved.leaf));
      }
    }
    const records = 'Record' + (ids.length > 1 ? 's ' : ' ') + ids.join(', ') + ' of board ' + board + ' ' + (ids.length > 1 ? 'are' : 'is');
    if (quorum < 1) {
      // never "witnessed" below a quorum of 1 (issue 41): the log's own signature is all there is
      show('unwitnessed', 'In the log, but no witness vouched for it',
        records + ' in the log as its operator signed it. No witness cosignature was required (quorum 0), so nothing shows ' +
        'that others see the same log: ask the election authority for its witnesses\' keys and check again with them. ' +
        'This check does not reveal or confirm how you voted.');
      return;
    }
    show('verified', 'Verified: your ballot is in the log',
      records + ' in the log the witnesses cosigned. Everyone who checks this board against the same witnesses sees the same log, ' +
      'so it can no longer be removed or changed without them noticing. This check does not reveal or confirm how you voted.');
  } catch (e) {
    const reason = e instanceof NotVerified ? e.message : 'the check could not be completed: ' + e;
    step(false, reason.charAt(0).toUpperCase() + reason.slice(1) + '.');
    show('failed', 'NOT verified',
      'Do not assume your ballot is recorded. ' + reason.charAt(0).toUpperCase() + reason.slice(1) +
      '. If it persists, tell the election observers, with this page\'s details.');
  } finally {
    $('go').disabled = false;
  }
}

async function init() {
  const params = new URLSearchParams(location.search);
  if (params.get('board')) $('board').value = params.get('board');
  if (params.get('record')) $('receipt').value = params.get('record');
  if (params.get('leaf_hash')) $('receipt').value = params.get('leaf_hash');
  if (params.get('election')) $('election').value = params.get('election');
  // keys pinned in the fragment (#log_key=..&witness_key=..&quorum=..) win: the election authority's
  // site links here with them, and a fragment is never sent to this server
  const pinned = new URLSearchParams(location.hash.replace(/^#/, ''));
  if (pinned.getAll('log_key').length > 0) {
    $('log-keys').value = pinned.getAll('log_key').join('\n');
    $('witness-keys').value = pinned.getAll('witness_key').join('\n');
    $('quorum').value = pinned.get('quorum') || String(Math.min(1, pinned.getAll('witness_key').length));
    keySource = 'pinned';
  } else {
    try {
      const trust = await (await fetchOk('/voter/trust.json')).json();
      $('log-keys').value = trust.log_keys.join('\n');
      $('witness-keys').value = trust.witness_keys.join('\n');
      $('quorum').value = String(trust.quorum);
      keySource = 'server';
    } catch (e) {
      keySource = 'none';
    }
  }
  $('keys-source').textContent = keySource === 'none'
    ? 'This server publishes no keys: paste the keys the election authority published.'
    : 'These keys came ' + keySourceText() + '.';
  for (const id of ['log-keys', 'witness-keys', 'quorum']) {
    $(id).addEventListener('input', () => {
      keySource = 'typed';
      $('keys-source').textContent = 'These keys are as you typed them.';
    });
  }
  $('check').addEventListener('submit', check);
  document.body.dataset.ready = 'true';
}

init();
