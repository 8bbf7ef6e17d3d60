#!/usr/bin/env node
// Publishes statements given as JSON lines on standard input (schemas/README.md "Statements as
// JSON"), signed with the sender's key, optionally in the committed form, and prints one JSON line
// per statement: board, delivery_id, leaf_hash (hex), committed, partition, offset.
//
//   node bin/publish.mjs --bootstrap HOST:PORT --schema ENVELOPE.avsc (--registry URL | --schema-id N)
//        --sender-seed-file FILE [--topic T] [--committed --key-store postgres://LOGIN:PW@HOST:PORT/DB]
//
// --sender-seed-file: the sender's Ed25519 seed, 64 hex digits. Exit 0 when every statement was
// acknowledged, 1 on the first failure (what was printed before it was acknowledged), 2 on a bad
// command line.
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { senderKey } from "../lib/keys.mjs";
import { Producer } from "../lib/producer.mjs";

let args;
try {
  ({ values: args } = parseArgs({
    options: {
      bootstrap: { type: "string" },
      topic: { type: "string", default: "electoral-log.events" },
      schema: { type: "string" },
      registry: { type: "string" },
      "schema-id": { type: "string" },
      "sender-seed-file": { type: "string" },
      committed: { type: "boolean", default: false },
      "key-store": { type: "string" },
    },
  }));
  for (const required of ["bootstrap", "schema", "sender-seed-file"]) {
    if (!args[required]) throw new Error(`--${required} is required`);
  }
  if (!args.registry === !args["schema-id"]) throw new Error("give one of --registry and --schema-id");
  if (args.committed && !args["key-store"]) throw new Error("--committed needs --key-store");
} catch (e) {
  console.error(`${e.message}\nusage: publish.mjs --bootstrap B --schema F (--registry URL | --schema-id N) --sender-seed-file F [--topic T] [--committed --key-store URL]`);
  process.exit(2);
}

const seed = Buffer.from(readFileSync(args["sender-seed-file"], "utf8").trim(), "hex");
const producer = await Producer.start({
  bootstrap: args.bootstrap,
  topic: args.topic,
  schemaFile: args.schema,
  registry: args.registry,
  schemaId: args["schema-id"] === undefined ? undefined : Number(args["schema-id"]),
  sender: senderKey(seed),
  keyStore: args["key-store"],
});
let failed = false;
try {
  for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
    if (line.trim() === "") continue;
    console.log(JSON.stringify(await producer.publish(JSON.parse(line), args.committed)));
  }
} catch (e) {
  console.error(`not published: ${e.message}`);
  failed = true;
} finally {
  await producer.close();
}
process.exit(failed ? 1 : 0);
