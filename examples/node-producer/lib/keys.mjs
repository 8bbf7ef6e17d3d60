// Keys of a producer (docs/producers.md "Sender signatures", docs/personal-data.md "The keys"): the
// sender's Ed25519 key (RFC 8032), the openings sealed under a content key (AES-256-GCM), the
// content key wrapped to the day's X25519 public key with HPKE (RFC 9180), and the key store that
// gives the public key (PostgreSQL function personal_keys.sealing_key, the producer's own login).
import { createCipheriv, createPrivateKey, createPublicKey, randomBytes, sign } from "node:crypto";
import { Aes128Gcm, CipherSuite, DhkemX25519HkdfSha256, HkdfSha256 } from "@hpke/core";
import pg from "pg";
import { str, uvarint } from "./statement.mjs";

const PKCS8_ED25519 = Buffer.from("302e020100300506032b657004220420", "hex");

/** An Ed25519 sender key from its 32-byte seed. */
export function senderKey(seed) {
  if (seed.length !== 32) throw new Error(`an Ed25519 seed is 32 bytes, not ${seed.length}`);
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519, seed]), format: "der", type: "pkcs8" });
  const spki = createPublicKey(privateKey).export({ format: "der", type: "spki" });
  return {
    publicKey: spki.subarray(spki.length - 32),
    /** The Ed25519 signature (64 bytes) of `bytes`: the statement's canonical bytes. */
    sign: (bytes) => sign(null, bytes, privateKey),
  };
}

/** The data key's ID of a board and a statement time: `<board>/<yyyy-mm-dd>`, the UTC day. */
export function dataKeyId(board, statementMillis) {
  return `${board}/${new Date(statementMillis).toISOString().slice(0, 10)}`;
}

/** The openings' plaintext: uvarint(n) { str(path) salt[16] str(value) }, sorted by path. */
export function encodeOpenings(openings) {
  const sorted = [...openings].sort((a, b) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path)));
  const out = [];
  uvarint(out, sorted.length);
  for (const o of sorted) {
    str(out, o.path);
    out.push(Buffer.from(o.salt));
    str(out, o.value);
  }
  return Buffer.concat(out);
}

/**
 * The openings of the statement with `leafHash`, encrypted: AES-256-GCM under the content key, a
 * fresh 12-byte nonce, additional data "electoral-log/personal/v1" 0x00 leaf_hash; the ciphertext
 * is followed by its 16-byte tag.
 */
export function sealOpenings(contentKey, leafHash, openings) {
  const nonce = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", contentKey, nonce);
  cipher.setAAD(Buffer.concat([Buffer.from("electoral-log/personal/v1", "ascii"), Buffer.from([0]), leafHash]));
  const ciphertext = Buffer.concat([cipher.update(encodeOpenings(openings)), cipher.final(), cipher.getAuthTag()]);
  return { nonce, ciphertext };
}

const HPKE = new CipherSuite({ kem: new DhkemX25519HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes128Gcm() });

/**
 * `contentKey` wrapped to the day's public key: enc[32] || HPKE-Seal(content_key)[48], mode_base,
 * DHKEM(X25519, HKDF-SHA256), HKDF-SHA256, AES-128-GCM, info "electoral-log/personal/v2" 0x00 key_id.
 */
export async function wrapContentKey(keyId, publicKey, contentKey) {
  const recipientPublicKey = await HPKE.kem.deserializePublicKey(new Uint8Array(publicKey));
  const info = Buffer.concat([Buffer.from("electoral-log/personal/v2", "ascii"), Buffer.from([0]), Buffer.from(keyId, "utf8")]);
  const sender = await HPKE.createSenderContext({ recipientPublicKey, info: new Uint8Array(info) });
  const sealed = await sender.seal(new Uint8Array(contentKey));
  return Buffer.concat([Buffer.from(sender.enc), Buffer.from(sealed)]);
}

/**
 * The log's key store as a producer reaches it: `personal_keys.sealing_key(board, day)` with the
 * producer's own login (`electoral-log keys allow --login L --board B`). When the day's key does
 * not exist yet the function asks the log for it; this waits for the projector's key maker to
 * say it made one (NOTIFY electoral_log_key_made), up to `waitMs`. One content key per day key
 * for the life of this object, wrapped once.
 */
export class SealingKeys {
  constructor(connectionString, waitMs = 30000) {
    this.connectionString = connectionString;
    this.waitMs = waitMs;
    this.days = new Map();
  }

  /** `{keyId, contentKey, wrappedKey}` for the board's day of `statementMillis`. */
  async forStatement(board, statementMillis) {
    const id = dataKeyId(board, statementMillis);
    if (!this.days.has(id)) {
      this.days.set(id, this.#make(board, id));
    }
    return this.days.get(id);
  }

  async #make(board, id) {
    const publicKey = await this.#ask(board, id.slice(board.length + 1), id);
    const contentKey = randomBytes(32);
    return { keyId: id, contentKey, wrappedKey: await wrapContentKey(id, publicKey, contentKey) };
  }

  async #ask(board, day, id) {
    const client = new pg.Client({ connectionString: this.connectionString });
    await client.connect();
    try {
      let made = () => {};
      client.on("notification", () => made());
      await client.query("LISTEN electoral_log_key_made"); // before asking, so that the answer cannot slip by
      const deadline = Date.now() + this.waitMs;
      for (;;) {
        const notified = new Promise((resolve) => (made = resolve));
        const { rows } = await client.query(
          "SELECT key_id, public_key, erased FROM personal_keys.sealing_key($1, $2::date)",
          [board, day],
        );
        if (rows.length !== 1) throw new Error("personal_keys.sealing_key returned no row");
        if (rows[0].erased) throw new Error(`the data key ${id} was erased: no statement of that day can be committed any more`);
        if (rows[0].public_key) return rows[0].public_key;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`the log did not make the data key ${id} within ${this.waitMs} ms: is a projector running?`);
        let timer;
        await Promise.race([notified, new Promise((resolve) => (timer = setTimeout(resolve, left)))]);
        clearTimeout(timer);
      }
    } finally {
      await client.end();
    }
  }
}
