#!/usr/bin/env node
// Checks this producer's bytes against the log's test vectors (docs/producers.md "Test vectors"):
// for every statement, its canonical bytes, leaf hash, sender signature with the vectors' test key
// and Kafka value, and the same for its committed form made with the vectors' fixed salts.
//   node bin/check-vectors.mjs VECTORS.json ENVELOPE.avsc
// Exit 0 when every vector matches, 1 naming each mismatch, 2 on a bad command line.
import { readFileSync } from "node:fs";
import { senderKey } from "../lib/keys.mjs";
import { envelope, WRITER_SCHEMA_HEADER, wire } from "../lib/producer.mjs";
import { canonicalBytes, commit, envelopeType, fingerprint, fromJson, leafHash, statementType } from "../lib/statement.mjs";

const [vectorsFile, schemaFile] = process.argv.slice(2);
if (!vectorsFile || !schemaFile) {
  console.error("usage: check-vectors.mjs VECTORS.json ENVELOPE.avsc");
  process.exit(2);
}
const vectors = JSON.parse(readFileSync(vectorsFile, "utf8"));
if (vectors.format !== "electoral-log producer vectors v1") {
  console.error(`not a vectors file of format v1: ${vectors.format}`);
  process.exit(2);
}
const type = envelopeType(readFileSync(schemaFile, "utf8"));
const st = statementType(type);
const key = senderKey(Buffer.from(vectors.sender_seed_hex, "hex"));
const problems = [];
const expect = (what, got, want) => {
  if (got !== want) problems.push(`${what}: got ${got}, want ${want}`);
};

expect("writer schema fingerprint", fingerprint(type), vectors.headers[WRITER_SCHEMA_HEADER]);
expect("sender public key", key.publicKey.toString("base64"), vectors.sender_public_key_base64);

/** Checks one statement's five forms; returns its Avro value. */
function check(name, statement, v) {
  const canonical = canonicalBytes(st, statement);
  const signature = key.sign(canonical);
  expect(`${name} canonical bytes`, canonical.toString("hex"), v.canonical_hex);
  expect(`${name} leaf hash`, leafHash(canonical).toString("hex"), v.leaf_hash_hex);
  expect(`${name} sender signature`, signature.toString("base64"), v.sender_signature_base64);
  expect(`${name} Kafka value`, wire(vectors.schema_id, type, envelope(statement, signature)).toString("hex"), v.wire_hex);
}

let checked = 0;
for (const v of vectors.vectors) {
  const statement = fromJson(st, v.statement);
  check(v.kind, statement, v);
  checked++;
  if (v.committed) {
    const salts = v.committed.salts;
    const { statement: c, openings } = commit(st, statement, (path) => Buffer.from(salts[path], "hex"));
    expect(`${v.kind} committed statement`, JSON.stringify(st.toString(c)), JSON.stringify(st.toString(fromJson(st, v.committed.statement))));
    const opened = Object.fromEntries(openings.map((o) => [o.path, o.value]));
    expect(`${v.kind} committed values`, JSON.stringify(opened), JSON.stringify(v.committed.values));
    check(`${v.kind} committed`, c, v.committed);
    checked++;
  }
}
for (const p of problems) console.error(p);
console.log(`${checked} statements of ${vectors.vectors.length} vectors checked, ${problems.length} mismatches`);
process.exit(problems.length === 0 ? 0 : 1);
