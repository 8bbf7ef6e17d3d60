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

/**
 * Thrown for anything that makes the check fail: a message of the catalogue (i18n.js), shown to the
 * voter in the language they read the page in.
 */
class NotVerified extends Error {
  constructor(key, params) {
    super(t(key, params));
    this.key = key;
    this.params = params || {};
  }
}

function b64decode(s) {
  let bin;
  try {
    bin = atob(s);
  } catch (e) {
    throw new NotVerified('err.notBase64', { value: s });
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
 * refused. type 0x01: an Ed25519 signed-note key; 0x04: an Ed25519 cosignature/v1 key; 0x06 (either
 * place): an ML-DSA-44 key (C2SP tlog-cosignature subtree/v1, 1312 bytes; postQuantum: true), checked
 * with pq.js's mlDsa44Verify (decisions 146, 147). Its text on the page is its name and key ID: the
 * key itself is 1,750 characters.
 */
async function parseVkey(vkey, type) {
  const parts = vkey.trim().split('+');
  if (parts.length < 3) throw new NotVerified('err.notVkey', { key: vkey });
  const name = parts[0];
  const id = parts[1];
  const raw = b64decode(parts.slice(2).join('+'));
  const postQuantum = raw.length === 1313 && raw[0] === 6;
  if (!postQuantum && (raw.length !== 33 || raw[0] !== type)) {
    throw new NotVerified(type === 1 ? 'err.notLogKey' : 'err.notWitnessKey', { key: vkey });
  }
  const pub = raw.slice(1);
  const keyId = (await sha256(te.encode(name + '\n'), new Uint8Array([raw[0]]), pub)).slice(0, 4);
  if (hex(keyId) !== id) throw new NotVerified('err.keyIdMismatch', { key: vkey });
  const text = postQuantum ? name + '+' + id + ' (ML-DSA-44)' : vkey.trim();
  return { name, keyId, pub, text, postQuantum, vkey: vkey.trim() };
}

/**
 * The witness rule of the server's trust.json when it is a C2SP tlog-policy rather than "k of these
 * keys" (its quorum -1: groups, such as a witness's Ed25519 and ML-DSA-44 keys that must both cosign,
 * or nested groups): { witnesses: name -> vkey, groups: name -> { k, members }, quorum, rule }. Null
 * for a count, and once the voter types keys of their own.
 */
let POLICY = null;

/** The witness, group and quorum lines of a tlog-policy the server checked whole. */
function parsePolicy(text, rule) {
  const witnesses = new Map();
  const groups = new Map();
  let quorum = 'none';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const w = line.split(/[ \t]+/);
    if (w[0] === 'witness') witnesses.set(w[1], w[2]);
    if (w[0] === 'group') {
      const members = w.slice(3);
      groups.set(w[1], { k: w[2] === 'all' ? members.length : w[2] === 'any' ? 1 : Number(w[2]), members });
    }
    if (w[0] === 'quorum') quorum = w[1];
  }
  return { witnesses, groups, quorum, rule };
}

/** C2SP tlog-policy: whether the witness keys (vkeys) whose cosignatures verified witness the quorum. */
function policyMet(policy, cosigned) {
  const witnessed = (name) => {
    if (name === 'none') return true;
    if (policy.witnesses.has(name)) return cosigned.has(policy.witnesses.get(name));
    const g = policy.groups.get(name);
    return g !== undefined && g.members.filter(witnessed).length >= g.k;
  };
  return witnessed(policy.quorum);
}

/** Whether the cosignatures that verified meet the rule: the policy's, else at least `quorum` of them. */
function quorumMet(cos, quorum) {
  return POLICY ? policyMet(POLICY, new Set(cos.valid.map((w) => w.vkey))) : cos.valid.length >= quorum;
}

/** The rule in words for the steps: the policy's, else the number. */
function quorumText(quorum) {
  return POLICY ? POLICY.rule : quorum;
}

/**
 * The cosigned_message an ML-DSA-44 cosignature signs (C2SP tlog-cosignature "ML-DSA-44 signed
 * message"): the label "subtree/v1\n\0", the cosigner name and the origin behind one-byte lengths, the
 * timestamp, start and end as big-endian uint64, and the 32-byte hash.
 */
function subtreeMessage(name, time, origin, start, end, hash) {
  const n = te.encode(name);
  const o = te.encode(origin);
  const out = new Uint8Array(12 + 1 + n.length + 8 + 1 + o.length + 8 + 8 + 32);
  const view = new DataView(out.buffer);
  let p = 0;
  out.set(te.encode('subtree/v1\n\0'), p);
  p += 12;
  out[p++] = n.length;
  out.set(n, p);
  p += n.length;
  view.setBigUint64(p, time);
  p += 8;
  out[p++] = o.length;
  out.set(o, p);
  p += o.length;
  view.setBigUint64(p, start);
  p += 8;
  view.setBigUint64(p, end);
  p += 8;
  out.set(hash, p);
  return out;
}

/**
 * A timestamped ML-DSA-44 signature line's bytes after the key ID (uint64 time || 2,420-byte
 * signature) by key k over the checkpoint of the note: its time, or null when it does not verify.
 */
function mlDsa44Check(k, note, bytes) {
  if (bytes.length !== 8 + 2420) return null;
  const time = new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0);
  const cp = parseCheckpoint(note.text);
  const message = subtreeMessage(k.name, time, cp.origin, 0n, cp.size, cp.root);
  return window.mlDsa44Verify(bytes.slice(8), message, k.pub) ? time : null;
}

/** A signed note: its text (up to and including the newline before the blank line) and signature lines. */
function parseNote(note) {
  const split = note.lastIndexOf('\n\n');
  if (split < 0 || !note.endsWith('\n')) throw new NotVerified('err.notNote');
  const text = note.slice(0, split + 1);
  const signatures = note
    .slice(split + 2, -1)
    .split('\n')
    .map((line) => {
      const m = /^\u2014 (\S+) (\S+)$/.exec(line);
      if (!m) throw new NotVerified('err.badSignatureLine', { line });
      const blob = b64decode(m[2]);
      if (blob.length < 5) throw new NotVerified('err.shortSignature');
      return { name: m[1], keyId: blob.slice(0, 4), signature: blob.slice(4) };
    });
  return { text, signatures };
}

/** C2SP tlog-checkpoint: origin, decimal size, base64 root hash, then optional extension lines. */
function parseCheckpoint(text) {
  const lines = text.split('\n');
  if (lines.length < 4 || !/^(0|[1-9][0-9]*)$/.test(lines[1])) throw new NotVerified('err.badCheckpoint');
  const root = b64decode(lines[2]);
  if (root.length !== 32) throw new NotVerified('err.badRoot');
  return { origin: lines[0], size: BigInt(lines[1]), root };
}

/** Rule 1: a trusted log key signed the note, and every signature by a trusted key verifies. */
async function checkLogSignature(note, logKeys) {
  const message = te.encode(note.text);
  const signedBy = [];
  for (const sig of note.signatures) {
    for (const k of logKeys) {
      if (sig.name === k.name && equal(sig.keyId, k.keyId)) {
        const good = k.postQuantum
          ? mlDsa44Check(k, note, sig.signature) !== null
          : sig.signature.length === 64 && (await ed25519Verify(k.pub, sig.signature, message));
        if (!good) {
          throw new NotVerified('err.logSignatureFails', { key: k.text });
        }
        signedBy.push(k.text);
      }
    }
  }
  if (signedBy.length === 0) {
    throw new NotVerified('err.notSignedByTrusted', { keys: logKeys.map((k) => k.text) });
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
    if (w.postQuantum) {
      const time = mlDsa44Check(w, note, sig.signature);
      if (time === null) invalid.push(w.name + ' (ML-DSA-44)');
      else valid.push({ name: w.name + ' (ML-DSA-44)', time: new Date(Number(time) * 1000), vkey: w.vkey });
      continue;
    }
    if (sig.signature.length !== 72) {
      invalid.push(w.name);
      continue;
    }
    const view = new DataView(sig.signature.buffer, sig.signature.byteOffset, 8);
    const time = view.getBigUint64(0);
    const message = concat(te.encode('cosignature/v1\ntime ' + time.toString() + '\n'), te.encode(note.text));
    if (await ed25519Verify(w.pub, sig.signature.slice(8), message)) {
      valid.push({ name: w.name, time: new Date(Number(time) * 1000), vkey: w.vkey });
    } else {
      invalid.push(w.name);
    }
  }
  return { valid, invalid };
}

/** Rule 3, RFC 9162 section 2.1.3.2: the root the inclusion proof leads to from the leaf hash. */
async function rootFromInclusion(index, size, leafHash, proof) {
  if (index >= size) throw new NotVerified('err.indexBeyond', { index: String(index), size: msg('count.records', { n: size }) });
  let fn = index;
  let sn = size - 1n;
  let r = leafHash;
  const node = new Uint8Array([1]);
  for (const p of proof) {
    if (sn === 0n) throw new NotVerified('err.proofTooLong');
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
  if (sn !== 0n) throw new NotVerified('err.proofTooShort');
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
    throw new NotVerified(detail ? 'err.serverAnsweredDetail' : 'err.serverAnswered', { status: String(r.status), url, detail });
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
  if (bytes.length !== 32) throw new NotVerified('err.leafHashSize');
  return { leafHash: bytes };
}

const $ = (id) => document.getElementById(id);

function lines(textarea) {
  return $(textarea).value.split('\n').map((l) => l.trim()).filter((l) => l !== '');
}

/**
 * What the page shows of the last check, as messages: re-rendered when the voter switches language.
 * state: null (none yet), 'verified', 'unwitnessed' or 'failed'.
 */
const RESULT = { state: null, verdict: null, meaning: null, steps: [] };

/** Adds a step: one or more messages, one sentence after another. */
function step(ok, ...messages) {
  RESULT.steps.push({ ok, messages });
  const li = document.createElement('li');
  renderStep(li, RESULT.steps[RESULT.steps.length - 1]);
  $('steps').appendChild(li);
}

function renderStep(li, s) {
  li.className = s.ok ? 'ok' : 'bad';
  li.replaceChildren(...s.messages.map((m, i) => {
    const span = document.createElement('span');
    render(span, m.key, m.params);
    return i === 0 ? [span] : [document.createTextNode(' '), span];
  }).flat());
}

function show(state, verdict, meaning) {
  RESULT.state = state;
  RESULT.verdict = verdict;
  RESULT.meaning = meaning;
  renderResult();
  $('result').focus();
}

/** Puts the result (if any) in the current language. */
function renderResult() {
  const result = $('result');
  if (RESULT.state === null) return;
  result.hidden = false;
  result.dataset.state = RESULT.state;
  $('verdict').textContent = t(RESULT.verdict);
  $('status').textContent = t(RESULT.verdict); // announced by screen readers (role=status)
  render($('meaning'), RESULT.meaning.key, RESULT.meaning.params);
  const items = $('steps').children;
  RESULT.steps.forEach((s, i) => renderStep(items[i], s));
}

/** Checks one record against the already verified checkpoint. */
async function checkRecord(board, cp, receipt, headers, witnessed) {
  const base = '/boards/' + encodeURIComponent(board);
  const url = receipt.leafHash
    ? base + '/proof?leaf_hash=' + encodeURIComponent(b64encode(receipt.leafHash)) + '&size=' + cp.size
    : base + '/records/' + receipt.id + '/proof?size=' + cp.size;
  const how = witnessed ? 'cosigned' : 'signed';
  const response = await fetch(url, { headers: headers || {}, cache: 'no-store', credentials: 'omit' });
  if (response.status === 400) {
    const problem = await response.json().catch(() => ({}));
    if (/is not in the tree of size/.test(problem.detail || '')) {
      const records = msg('count.records', { n: cp.size });
      throw receipt.id
        ? new NotVerified('err.recordNotIn.' + how, { id: receipt.id, size: records })
        : new NotVerified('err.ballotNotIn.' + how, { size: records });
    }
  }
  const proof = await (response.ok ? response : await fetchOk(url, headers)).json();
  if (BigInt(proof.size) !== cp.size) throw new NotVerified('err.proofSize', { proof: String(proof.size), size: String(cp.size) });
  const leaf = b64decode(proof.leaf_hash);
  if (receipt.leafHash && !equal(leaf, receipt.leafHash)) throw new NotVerified('err.otherLeaf');
  const root = await rootFromInclusion(BigInt(proof.index), cp.size, leaf, proof.hashes.map(b64decode));
  if (!equal(root, cp.root)) throw new NotVerified('err.rootMismatch.' + how, { index: String(proof.index) });
  step(true,
    msg('step.included.' + how, {
      index: String(proof.index), leaf: b64encode(leaf), size: msg('count.records', { n: cp.size }),
      hashes: msg('count.hashes', { n: proof.hashes.length }),
    }),
    msg(receipt.leafHash ? 'step.receiptMatches' : 'step.compareReceipt'));
  return { index: proof.index, leaf };
}

/**
 * Where the keys the check uses came from (issue 41): this server's /voter/trust.json, the link the
 * page was opened with (the fragment, which never reaches any server: how the election authority's
 * own site pins them), or the voter's own typing: 'pinned', 'server', 'typed' or 'none'.
 */
let keySource = 'none';

/** The board's own checkpoint, witnessed on its own (BOARDS witness mode) or only signed (quorum 0); adds its steps. */
async function checkBoardCheckpoint(board, logKeys, witnessKeys, quorum) {
  const noteText = await (await fetchOk('/boards/' + encodeURIComponent(board) + '/checkpoint' + (quorum > 0 ? '?witnessed=true' : ''))).text();
  return checkCheckpointNote(noteText, logKeys, witnessKeys, quorum);
}

/** The failure when fewer than {@code quorum} trusted witnesses cosigned: {@code what} is 'err' or 'err.heads'. */
function shortOfQuorum(what, cos, witnessKeys, quorum) {
  return new NotVerified(what + '.quorum' + (cos.invalid.length ? '.invalid' : ''), {
    valid: cos.valid.length, total: msg('count.witnesses', { n: witnessKeys.length }), quorum: quorumText(quorum), invalid: cos.invalid,
  });
}

/** The witnesses that cosigned, each with the time it did. */
function cosigners(cos) {
  return cos.valid.map((w) => msg('step.cosigner', { name: w.name, time: w.time }));
}

/** A checkpoint note: its log signature and the quorum of its cosignatures; adds its steps. */
async function checkCheckpointNote(noteText, logKeys, witnessKeys, quorum) {
  const note = parseNote(noteText);
  const cp = parseCheckpoint(note.text);
  const signedBy = await checkLogSignature(note, logKeys);
  step(true, msg('step.signed', { origin: cp.origin, size: msg('count.records', { n: cp.size }), keys: signedBy }));
  const cos = await checkCosignatures(note, witnessKeys);
  if (!quorumMet(cos, quorum)) throw shortOfQuorum('err', cos, witnessKeys, quorum);
  step(true, quorum === 0
    ? msg('step.noQuorum')
    : msg('step.cosigned', {
      valid: cos.valid.length, total: msg('count.witnesses', { n: witnessKeys.length }), quorum: quorumText(quorum), cosigners: cosigners(cos),
    }));
  return cp;
}

/** The result's last line: what was verified, of which records of which board. */
function verdict(state, ids, board, published) {
  const meaning = 'meaning.' + state + (published ? '.published' : '');
  show(state, 'verdict.' + state, msg(meaning, { count: ids.length, ids, board }));
}

async function check(event) {
  event.preventDefault();
  $('steps').replaceChildren();
  RESULT.state = null;
  RESULT.steps = [];
  $('result').hidden = true;
  $('go').disabled = true;
  $('status').textContent = t('result.checking');
  try {
    const board = $('board').value.trim();
    if (board === '') throw new NotVerified('err.noBoard');
    const token = $('token').value.trim();
    const headers = token ? { Authorization: 'Bearer ' + token } : {};
    const receipt = receiptOf($('receipt').value);
    if (!receipt && !token) throw new NotVerified('err.noReceipt');
    if (!window.crypto || !crypto.subtle) throw new NotVerified('err.noWebCrypto');
    const allLogKeys = await Promise.all(lines('log-keys').map((k) => parseVkey(k, 1)));
    const allWitnessKeys = await Promise.all(lines('witness-keys').map((k) => parseVkey(k, 4)));
    // ML-DSA-44 keys are checked with pq.js (decision 147); where it did not load they are named, not
    // checked, and the page says so
    const checksPostQuantum = typeof window.mlDsa44Verify === 'function';
    const unchecked = checksPostQuantum ? [] : allLogKeys.concat(allWitnessKeys).filter((k) => k.postQuantum);
    const logKeys = allLogKeys.filter((k) => checksPostQuantum || !k.postQuantum);
    if (logKeys.length === 0) throw new NotVerified('err.noLogKey');
    const witnessKeys = allWitnessKeys.filter((k) => checksPostQuantum || !k.postQuantum);
    const quorum = Number($('quorum').value || '0');
    if (!Number.isInteger(quorum) || quorum < 0 || quorum > witnessKeys.length) {
      throw new NotVerified('err.quorumRange', { total: msg('count.witnessKeys', { n: witnessKeys.length }) });
    }

    step(true, msg(witnessKeys.length ? 'step.keys' : 'step.keys.noWitness', {
      logKeys: logKeys.map((k) => k.text), witnessKeys: witnessKeys.map((k) => k.text), quorum: quorumText(quorum),
      source: msg('keys.from.' + keySource),
    }));
    if (unchecked.length) step(true, msg('step.keys.postQuantum', { keys: unchecked.map((k) => k.text) }));
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
      step(true, msg(BigInt(state.sealed.size) === cp.size ? 'step.sealed.last' : 'step.sealed', {
        size: msg('count.records', { n: BigInt(state.sealed.size) }), at: new Date(state.sealed.at),
      }));
    }

    const receipts = [];
    if (receipt) {
      receipts.push(receipt);
    } else {
      const election = $('election').value.trim();
      if (election === '') throw new NotVerified('err.noElection');
      const ballots = await (await fetchOk('/boards/' + encodeURIComponent(board) + '/ballots?election_id=' +
        encodeURIComponent(election), headers)).json();
      if (ballots.ballots.length === 0) throw new NotVerified('err.noBallots');
      ballots.ballots.forEach((b) => receipts.push({ id: String(b.id) }));
    }
    const ids = [];
    for (const r of receipts) {
      const proved = await checkRecord(board, cp, r, headers, quorum > 0);
      ids.push(String(proved.index));
      if (token) {
        // signed in: the voter's own values, checked against the commitments in the proved leaf (personal.js)
        const record = await (await fetchOk('/boards/' + encodeURIComponent(board) + '/records/' + proved.index, headers)).json();
        step(true, await checkPersonal(record, proved.leaf));
      }
    }
    // never "witnessed" below a quorum of 1 (issue 41): the log's own signature is all there is
    verdict(quorum < 1 ? 'unwitnessed' : 'verified', ids, board, false);
  } catch (e) {
    const reason = e instanceof NotVerified ? msg(e.key, e.params) : msg('err.unexpected', { error: String(e) });
    step(false, reason);
    show('failed', 'verdict.failed', msg('meaning.failed', { reason }));
  } finally {
    $('go').disabled = false;
  }
}

/** The keys' source, in the hint above them. */
function renderKeySource() {
  $('keys-source').textContent = t(keySource === 'none' ? 'keys.none' : 'keys.from.' + keySource);
}

async function init() {
  try {
    await start();
  } catch (e) {
    // without its catalogues the page has no words of its own: say what failed, plainly
    document.body.dataset.failed = 'true';
    const p = document.createElement('p');
    p.setAttribute('role', 'alert');
    p.textContent = 'The voter page could not start: ' + e.message;
    document.querySelector('main').replaceChildren(p);
  }
}

/** Loads the languages, fills the form from the link and the server's keys, and makes the page ready. */
async function start() {
  await loadLanguages(TILES !== undefined ? 'messages.json' : '/voter/messages.json', $('language'), () => {
    renderKeySource();
    renderResult();
  });
  $('keys-source').textContent = t('keys.loading');
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
      const trust = await (await fetchOk(TILES !== undefined ? 'trust.json' : '/voter/trust.json')).json();
      $('log-keys').value = trust.log_keys.join('\n');
      $('witness-keys').value = trust.witness_keys.join('\n');
      // a rule with groups: the policy decides, the field only says that witnesses are asked for
      if (trust.quorum < 0) POLICY = parsePolicy(trust.policy, trust.quorum_rule);
      $('quorum').value = String(trust.quorum < 0 ? 1 : trust.quorum);
      keySource = 'server';
    } catch (e) {
      keySource = 'none';
    }
  }
  renderKeySource();
  for (const id of ['log-keys', 'witness-keys', 'quorum']) {
    $(id).addEventListener('input', () => {
      keySource = 'typed';
      POLICY = null; // the voter's own keys: "at least quorum of them"
      renderKeySource();
    });
  }
  $('check').addEventListener('submit', check);
  document.body.dataset.ready = 'true';
}

// after every deferred script ran (tiles.js declares TILES)
document.addEventListener('DOMContentLoaded', init);
