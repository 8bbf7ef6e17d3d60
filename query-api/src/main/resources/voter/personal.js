// The voter page's check of a voter's own personal values (issue 46, docs/personal-data.md "What
// each role sees"). A statement in the committed form (format 2) holds, for each personal field, a
// salted commitment instead of the value; the record view gives the signed-in voter their own
// values and salts. The page checks, in the browser:
//   1. the statement the server shows hashes to the leaf whose inclusion was just proved
//      (RFC 6962 section 2.1: SHA-256 of 0x00 and the entry);
//   2. each value and salt opens the commitment of its field in that statement:
//      SHA-256("electoral-log/commitment/v1" 0x00 str(board) str(delivery_id) str(path) salt str(value))
//      (core PersonalCommitment), with the board and delivery ID read from the statement itself.
// Uses sha256, concat, equal, b64decode, te and NotVerified of voter.js.
'use strict';

/**
 * The top-level board, delivery ID, kind and commitments of canonical statement bytes, and the body's
 * strings, bytes and numbers (schemas/README.md "Canonical statement bytes": "ELS1", then a record of
 * str(name) value fields). Also what heads.js reads a heads entry with.
 */
function readStatement(bytes) {
  let pos = 0;
  const u8 = () => {
    if (pos >= bytes.length) throw new NotVerified('err.statement.cut', { at: pos });
    return bytes[pos++];
  };
  const uvarint = () => {
    let v = 0;
    for (let shift = 0; shift < 49; shift += 7) {
      const x = u8();
      v += (x & 0x7f) * 2 ** shift;
      if ((x & 0x80) === 0) return v;
    }
    throw new NotVerified('err.statement.length', { at: pos });
  };
  const raw = () => {
    const n = uvarint();
    if (n > bytes.length - pos) throw new NotVerified('err.statement.pastEnd', { at: pos });
    pos += n;
    return bytes.subarray(pos - n, pos);
  };
  const str = () => new TextDecoder('utf-8', { fatal: true }).decode(raw());
  const skip = () => {
    const tag = u8();
    if (tag === 0x00) return;
    if (tag === 0x01) { u8(); return; }
    if (tag === 0x02 || tag === 0x03) { for (let i = 0; i < 8; i++) u8(); return; }
    if (tag === 0x04 || tag === 0x05 || tag === 0x06) { raw(); return; }
    if (tag === 0x07) { str(); for (let n = uvarint(); n > 0; n--) { str(); skip(); } return; }
    if (tag === 0x08) { for (let n = uvarint(); n > 0; n--) skip(); return; }
    if (tag === 0x09) { for (let n = uvarint(); n > 0; n--) { str(); skip(); } return; }
    throw new NotVerified('err.statement.tag', { tag, at: pos - 1 });
  };
  if (new TextDecoder().decode(bytes.subarray(0, 4)) !== 'ELS1') throw new NotVerified('err.statement.notCanonical');
  pos = 4;
  if (u8() !== 0x07) throw new NotVerified('err.statement.notRecord');
  str();
  const out = { commitments: new Map() };
  for (let n = uvarint(); n > 0; n--) {
    const name = str();
    const at = pos;
    const tag = u8();
    if ((name === 'board' || name === 'delivery_id') && tag === 0x04) {
      out[name] = str();
    } else if (name === 'kind' && tag === 0x06) {
      out.kind = str();
    } else if (name === 'sender_public_key' && tag === 0x05) {
      out.sender_public_key = raw();
    } else if (name === 'body' && tag === 0x07) {
      str();
      out.body = {};
      for (let m = uvarint(); m > 0; m--) {
        const field = str();
        const t = u8();
        if (t === 0x04 || t === 0x06) {
          out.body[field] = str();
        } else if (t === 0x05) {
          out.body[field] = raw();
        } else if (t === 0x02) {
          let v = 0n;
          for (let i = 0; i < 8; i++) v = (v << 8n) | BigInt(u8());
          out.body[field] = BigInt.asIntN(64, v);
        } else {
          pos--;
          skip();
        }
      }
    } else if (name === 'commitments' && tag === 0x09) {
      for (let m = uvarint(); m > 0; m--) {
        const path = str();
        if (u8() !== 0x05) throw new NotVerified('err.statement.commitment', { path });
        out.commitments.set(path, raw());
      }
    } else {
      pos = at;
      skip();
    }
  }
  if (pos !== bytes.length) throw new NotVerified('err.statement.trailing', { bytes: msg('count.bytes', { n: bytes.length - pos }) });
  return out;
}

/** {@code uvarint(length of UTF-8 s) UTF-8 s}, as the commitment's input writes strings. */
function strBytes(s) {
  const b = te.encode(s);
  const len = [];
  let n = b.length;
  while (n >= 0x80) {
    len.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  len.push(n);
  return concat(new Uint8Array(len), b);
}

/** The commitment to {@code value} at {@code path} of statement (board, deliveryId): core PersonalCommitment.of. */
async function commitmentOf(board, deliveryId, path, salt, value) {
  return sha256(te.encode('electoral-log/commitment/v1'), new Uint8Array([0]), strBytes(board), strBytes(deliveryId),
    strBytes(path), salt, strBytes(value));
}

/** The kind of a record, as the voter's language names it. */
function kindOf(record) {
  return msg('kind.' + (record.kind || 'UNKNOWN'));
}

/**
 * Checks the signed-in voter's own values in one record (the record view of /boards/{board}/records/{id})
 * against the leaf {@code leaf} whose inclusion was proved. Returns the step's message; throws NotVerified.
 */
async function checkPersonal(record, leaf) {
  const id = String(record.id);
  if (!record.personal || record.personal.length === 0) {
    return msg('step.personal.none', { id, kind: kindOf(record) });
  }
  const statement = b64decode(record.statement);
  if (!equal(await sha256(new Uint8Array([0]), statement), leaf)) {
    throw new NotVerified('err.personal.otherStatement', { id });
  }
  const s = readStatement(statement);
  const opened = [];
  for (const p of record.personal) {
    const commitment = s.commitments.get(p.path);
    if (!commitment) throw new NotVerified('err.personal.noCommitment', { id, path: p.path });
    if (!equal(await commitmentOf(s.board, s.delivery_id, p.path, b64decode(p.salt), p.value), commitment)) {
      throw new NotVerified('err.personal.doesNotOpen', { path: p.path, value: p.value, id });
    }
    opened.push(msg('step.personal.value', { path: p.path, value: p.value }));
  }
  // the kind as the proved statement says, not as the server's record view does
  return msg('step.personal.opened', { id, kind: msg('kind.' + (s.kind || 'UNKNOWN')), values: opened });
}
