// The statement format of docs/producers.md, written from the protocol page and not from the Java
// code: a statement as JSON -> the Avro value of the envelope schema (avsc) -> its canonical bytes
// (schemas/README.md "Canonical statement bytes") -> its leaf hash (RFC 6962 section 2.1); the
// committed form (docs/personal-data.md "The committed form"). No I/O here.
import avro from "avsc";
import { createHash } from "node:crypto";

/** The personal fields, by path, sorted (docs/producers.md "The committed form"). */
export const PERSONAL_PATHS = ["body.country", "body.error", "body.ip", "user_id", "username"];

/** The committed form's format number (`format_version`). */
export const COMMITTED_FORMAT = 2;

const COMMITMENT_DOMAIN = "electoral-log/commitment/v1";

/**
 * The envelope schema (the text of `envelope.avsc`) as an avsc type. Unions are wrapped
 * (`{"string": "u1"}`, `{"org.electorallog.schemas.avro.CastVote": {...}}`) so that a value says
 * which branch it holds, as the canonical bytes need.
 */
export function envelopeType(schemaText) {
  return avro.Type.forSchema(JSON.parse(schemaText), { wrapUnions: true });
}

/** The statement record's type inside the envelope type. */
export function statementType(envelope) {
  return envelope.field("statement").type;
}

/**
 * The writer schema's fingerprint the `electoral-log.writer-schema` header carries: SHA-256 of
 * the Avro parsing canonical form, lowercase hex (docs/producers.md "The event").
 */
export function fingerprint(type) {
  return type.fingerprint("sha256").toString("hex"); // avsc: the hash of JSON.stringify(type.schema()), the canonical form
}

/**
 * A statement as JSON (schemas/README.md "Statements as JSON": bytes base64, `kind` its name,
 * `statement_timestamp` milliseconds or an ISO-8601 instant, `body` an object whose `type` names
 * the body record) as the Avro value of `type`. Unknown fields are refused, naming the field.
 */
export function fromJson(type, json, path = "statement") {
  switch (type.typeName) {
    case "record": {
      if (json === null || typeof json !== "object" || Array.isArray(json)) {
        throw new Error(`${path}: expected an object`);
      }
      const names = new Set(type.fields.map((f) => f.name));
      for (const key of Object.keys(json)) {
        if (!names.has(key) && key !== "type") {
          throw new Error(`${path}.${key}: no such field in ${shortName(type.name)}`);
        }
      }
      const out = {};
      for (const f of type.fields) {
        const v = json[f.name];
        out[f.name] = v === undefined ? missing(f, `${path}.${f.name}`) : fromJson(f.type, v, `${path}.${f.name}`);
      }
      return out;
    }
    case "union:wrapped": {
      if (json === null) {
        return null;
      }
      const branches = type.types.filter((t) => t.typeName !== "null");
      let branch;
      if (branches.length === 1) {
        branch = branches[0];
      } else {
        const name = json && typeof json === "object" ? json.type : undefined;
        branch = branches.find((t) => t.typeName === "record" && shortName(t.name) === name);
        if (!branch) {
          throw new Error(`${path}: "type" must name one of ${branches.map((t) => shortName(t.name)).join(", ")}`);
        }
      }
      return { [branch.branchName]: fromJson(branch, json, path) };
    }
    case "string":
      if (typeof json !== "string") throw new Error(`${path}: expected a string`);
      return json;
    case "long":
    case "int": {
      const n = typeof json === "string" && path.endsWith("statement_timestamp") ? Date.parse(json) : json;
      if (!Number.isSafeInteger(n)) throw new Error(`${path}: expected a whole number`);
      return n;
    }
    case "float":
    case "double":
      if (typeof json !== "number") throw new Error(`${path}: expected a number`);
      return json;
    case "boolean":
      if (typeof json !== "boolean") throw new Error(`${path}: expected true or false`);
      return json;
    case "bytes":
    case "fixed":
      if (typeof json !== "string") throw new Error(`${path}: expected base64`);
      return Buffer.from(json, "base64");
    case "enum":
      if (!type.symbols.includes(json)) throw new Error(`${path}: expected one of ${type.symbols.join(", ")}`);
      return json;
    case "array":
      if (!Array.isArray(json)) throw new Error(`${path}: expected an array`);
      return json.map((v, i) => fromJson(type.itemsType, v, `${path}[${i}]`));
    case "map": {
      if (json === null || typeof json !== "object") throw new Error(`${path}: expected an object`);
      const out = {};
      for (const [k, v] of Object.entries(json)) out[k] = fromJson(type.valuesType, v, `${path}.${k}`);
      return out;
    }
    default:
      throw new Error(`${path}: Avro type ${type.typeName} is not in the statement schema`);
  }
}

function missing(field, path) {
  if (field.defaultValue() === undefined) {
    throw new Error(`${path}: required`);
  }
  return field.defaultValue();
}

/** `org.electorallog.schemas.avro.CastVote` -> `CastVote`. */
export function shortName(name) {
  return name.slice(name.lastIndexOf(".") + 1);
}

/**
 * The canonical bytes of a statement (schemas/README.md "Canonical statement bytes"): "ELS1" and the
 * value walked field by field in name order, nulls left out.
 */
export function canonicalBytes(type, statement) {
  const out = [];
  out.push(Buffer.from("ELS1", "ascii"));
  value(out, type, statement);
  return Buffer.concat(out);
}

/** SHA-256(0x00 || canonical bytes): the statement's leaf hash (RFC 6962 section 2.1). */
export function leafHash(canonical) {
  return createHash("sha256").update(Buffer.from([0])).update(canonical).digest();
}

function value(out, type, v) {
  switch (type.typeName) {
    case "record": {
      out.push(Buffer.from([0x07]));
      str(out, shortName(type.name));
      const present = type.fields
        .filter((f) => v[f.name] !== null && v[f.name] !== undefined)
        .sort((a, b) => Buffer.compare(Buffer.from(a.name, "utf8"), Buffer.from(b.name, "utf8")));
      uvarint(out, present.length);
      for (const f of present) {
        str(out, f.name);
        value(out, f.type, v[f.name]);
      }
      return;
    }
    case "union:wrapped": {
      if (v === null) {
        out.push(Buffer.from([0x00]));
        return;
      }
      const [name] = Object.keys(v);
      value(out, type.types.find((t) => t.branchName === name), v[name]);
      return;
    }
    case "null":
      out.push(Buffer.from([0x00]));
      return;
    case "boolean":
      out.push(Buffer.from([0x01, v ? 1 : 0]));
      return;
    case "int":
    case "long": {
      const b = Buffer.alloc(9);
      b[0] = 0x02;
      b.writeBigInt64BE(BigInt(v), 1);
      out.push(b);
      return;
    }
    case "float":
    case "double": {
      const b = Buffer.alloc(9);
      b[0] = 0x03;
      b.writeDoubleBE(v, 1);
      out.push(b);
      return;
    }
    case "string":
      out.push(Buffer.from([0x04]));
      str(out, v);
      return;
    case "bytes":
    case "fixed":
      out.push(Buffer.from([0x05]));
      uvarint(out, v.length);
      out.push(Buffer.from(v));
      return;
    case "enum":
      out.push(Buffer.from([0x06]));
      str(out, v);
      return;
    case "array":
      out.push(Buffer.from([0x08]));
      uvarint(out, v.length);
      for (const item of v) value(out, type.itemsType, item);
      return;
    case "map": {
      out.push(Buffer.from([0x09]));
      const keys = Object.keys(v).sort((a, b) => Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8")));
      uvarint(out, keys.length);
      for (const k of keys) {
        str(out, k);
        value(out, type.valuesType, v[k]);
      }
      return;
    }
    default:
      throw new Error(`no canonical encoding for Avro type ${type.typeName}`);
  }
}

/** `uvarint(length of UTF-8 s) UTF-8 s`. */
export function str(out, s) {
  const b = Buffer.from(s, "utf8");
  uvarint(out, b.length);
  out.push(b);
}

/** Unsigned LEB128. */
export function uvarint(out, n) {
  const bytes = [];
  let v = BigInt(n);
  while (v >= 0x80n) {
    bytes.push(Number((v & 0x7fn) | 0x80n));
    v >>= 7n;
  }
  bytes.push(Number(v));
  out.push(Buffer.from(bytes));
}

/**
 * The commitment to one personal value (docs/producers.md "The committed form"): SHA-256("electoral-
 * log/commitment/v1" 0x00 str(board) str(delivery_id) str(path) salt[16] str(value)).
 */
export function commitment(board, deliveryId, path, salt, text) {
  if (salt.length !== 16) throw new Error(`a salt is 16 bytes, not ${salt.length}`);
  const out = [Buffer.from(COMMITMENT_DOMAIN, "ascii"), Buffer.from([0])];
  str(out, board);
  str(out, deliveryId);
  str(out, path);
  out.push(Buffer.from(salt));
  str(out, text);
  return createHash("sha256").update(Buffer.concat(out)).digest();
}

/**
 * `statement` (format 1, personal values in the clear) in the committed form: a copy with each
 * personal value removed (a required one: the empty string) and committed to with the salt `saltOf(path)` gives (fresh random bytes
 * for a real statement), `format_version` 2, and the openings `[{path, salt, value}]`.
 */
export function commit(type, statement, saltOf) {
  if (statement.format_version !== null || statement.commitments !== null) {
    throw new Error("the statement is already in the committed form");
  }
  const copy = type.clone(statement);
  const commitments = {};
  const openings = [];
  for (const path of PERSONAL_PATHS) {
    const slot = slotOf(type, copy, path);
    if (!slot || slot.holder[slot.name] === null) continue;
    // a field the schema requires (CastVoteError's error) holds the empty string instead of null (decision 141)
    const required = slot.type.typeName !== "union:wrapped";
    const text = required ? slot.holder[slot.name] : slot.holder[slot.name].string;
    const salt = saltOf(path);
    commitments[path] = commitment(copy.board, copy.delivery_id, path, salt, text);
    openings.push({ path, salt, value: text });
    slot.holder[slot.name] = required ? "" : null;
  }
  copy.format_version = { int: COMMITTED_FORMAT };
  copy.commitments = { map: commitments };
  return { statement: copy, openings };
}

function slotOf(type, statement, path) {
  let holder = statement;
  let holderType = type;
  let name = path;
  if (path.startsWith("body.")) {
    if (statement.body === null) return null;
    const [branch] = Object.keys(statement.body);
    holder = statement.body[branch];
    holderType = type.field("body").type.types.find((t) => t.branchName === branch);
    name = path.slice("body.".length);
  }
  const field = holderType.field(name);
  return field ? { holder, name, type: field.type } : null;
}
