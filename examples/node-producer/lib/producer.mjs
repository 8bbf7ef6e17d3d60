// A producer of electoral-log statements (docs/producers.md): signs each statement's canonical
// bytes, optionally commits its personal values and seals their openings, encodes the envelope in
// the Confluent wire format with the writer schema's ID and sends it to the board's partition with
// the writer schema's fingerprint in a header, idempotent and acknowledged by all replicas.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import kafkajs from "kafkajs";
import { SealingKeys, sealOpenings } from "./keys.mjs";
import {
  canonicalBytes,
  commit,
  envelopeType,
  fingerprint,
  fromJson,
  leafHash,
  statementType,
} from "./statement.mjs";

const { Kafka, Partitioners, logLevel } = kafkajs;

/** The header naming the writer schema by content (decision 140). */
export const WRITER_SCHEMA_HEADER = "electoral-log.writer-schema";

/** The Kafka value: 0x00, the schema ID (4 bytes, big-endian), the Avro binary envelope. */
export function wire(schemaId, type, envelope) {
  const prefix = Buffer.alloc(5);
  prefix.writeInt32BE(schemaId, 1);
  return Buffer.concat([prefix, type.toBuffer(envelope)]);
}

/**
 * The envelope of a signed statement: `sender_signature` is Ed25519 of the canonical bytes;
 * `personal`, when given, is `{keyId, wrappedKey, nonce, ciphertext}`.
 */
export function envelope(statement, signature, personal = null) {
  return {
    statement,
    sender_signature: { bytes: signature },
    system_signature: null,
    personal: personal && {
      "org.electorallog.schemas.avro.PersonalData": {
        key_id: personal.keyId,
        nonce: personal.nonce,
        wrapped_key: personal.wrappedKey,
        ciphertext: personal.ciphertext,
      },
    },
  };
}

/** A UUIDv7 (RFC 9562 section 5.7): 48 bits of milliseconds, then random bits. */
export function uuidv7() {
  const b = randomBytes(16);
  b.writeUIntBE(Date.now(), 0, 6);
  b[6] = (b[6] & 0x0f) | 0x70;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.toString("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** The registry's ID for `schemaText` under `subject`, registering it if new (Confluent REST API). */
export async function registerSchema(registryUrl, subject, schemaText) {
  const r = await fetch(`${registryUrl.replace(/\/$/, "")}/subjects/${encodeURIComponent(subject)}/versions`, {
    method: "POST",
    headers: { "Content-Type": "application/vnd.schemaregistry.v1+json" },
    body: JSON.stringify({ schema: schemaText }),
  });
  const body = await r.text();
  if (!r.ok) throw new Error(`the schema registry refused the envelope schema: ${r.status} ${body}`);
  return JSON.parse(body).id;
}

export class Producer {
  /**
   * @param options.bootstrap   Kafka bootstrap servers, comma-separated
   * @param options.topic       the events topic
   * @param options.schemaFile  the envelope schema (schemas/src/main/avro/envelope.avsc)
   * @param options.registry    a Confluent-compatible registry's URL, or
   * @param options.schemaId    the embedded registry's ID of that schema
   * @param options.sender      the sender key (keys.mjs senderKey)
   * @param options.keyStore    the key store's PostgreSQL URL with this producer's own login, for the committed form
   */
  static async start(options) {
    const p = new Producer(options);
    const text = readFileSync(options.schemaFile, "utf8");
    p.type = envelopeType(text);
    p.statementType = statementType(p.type);
    p.fingerprint = fingerprint(p.type);
    p.schemaId = options.registry
      ? await registerSchema(options.registry, `${options.topic}-value`, text)
      : options.schemaId;
    if (!Number.isInteger(p.schemaId)) throw new Error("give the registry's URL or the embedded schema ID");
    p.keys = options.keyStore ? new SealingKeys(options.keyStore) : null;
    const kafka = new Kafka({ clientId: "electoral-log-node-producer", brokers: options.bootstrap.split(","), logLevel: logLevel.WARN });
    // the Java client's partitioner (murmur2 of the key): a board's statements share a partition whichever language sent them
    p.kafka = kafka.producer({ idempotent: true, maxInFlightRequests: 1, createPartitioner: Partitioners.DefaultPartitioner });
    await p.kafka.connect();
    return p;
  }

  constructor(options) {
    this.options = options;
  }

  /**
   * Publishes one statement given as JSON (its `delivery_id` and `sender_public_key` filled in when
   * missing), in the committed form when `committed`; resolves once every replica has it, with the
   * board, delivery ID, leaf hash (hex), partition and offset. The projector may still refuse it
   * (the dead-letter topic); `GET /boards/{board}/deliveries?delivery_id=&leaf_hash=` says when it
   * is recorded.
   */
  async publish(json, committed = false) {
    const filled = {
      ...json,
      delivery_id: json.delivery_id ?? uuidv7(),
      sender_public_key: json.sender_public_key ?? this.options.sender.publicKey.toString("base64"),
    };
    let statement = fromJson(this.statementType, filled);
    let openings = [];
    if (committed) {
      if (!this.keys) throw new Error("the committed form needs the key store (--key-store)");
      ({ statement, openings } = commit(this.statementType, statement, () => randomBytes(16)));
    }
    const canonical = canonicalBytes(this.statementType, statement);
    if (canonical.length > 65535) throw new Error(`the canonical bytes are ${canonical.length} bytes, more than 65,535`);
    const leaf = leafHash(canonical);
    let personal = null;
    if (openings.length > 0) {
      const day = await this.keys.forStatement(statement.board, statement.statement_timestamp);
      personal = { ...day, ...sealOpenings(day.contentKey, leaf, openings) };
    }
    const value = wire(this.schemaId, this.type, envelope(statement, this.options.sender.sign(canonical), personal));
    const [meta] = await this.kafka.send({
      topic: this.options.topic,
      acks: -1,
      messages: [{ key: statement.board, value, headers: { [WRITER_SCHEMA_HEADER]: this.fingerprint } }],
    });
    return {
      board: statement.board,
      delivery_id: statement.delivery_id,
      leaf_hash: leaf.toString("hex"),
      committed,
      partition: meta.partition,
      offset: Number(meta.baseOffset),
    };
  }

  async close() {
    await this.kafka.disconnect();
  }
}
