package org.electorallog.core;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.signers.Ed25519Signer;

/**
 * An Ed25519 signer of C2SP signed notes ("Signatures" and "Ed25519" sections of C2SP
 * signed-note). Its private form is the Go {@code note} signer-key string
 * {@code PRIVATE+KEY+<name>+<hex key ID>+<base64(0x01 || 32-byte seed)>}; its public form is the
 * verifier key {@code <name>+<hex key ID>+<base64(0x01 || public key)>}.
 *
 * <p>Bouncy Castle's Ed25519 is used: it is many times faster than the JDK's. Instances are
 * thread-safe (each signature uses a fresh signer object).
 */
public final class NoteSigner {
    private final String name;
    private final Ed25519PrivateKeyParameters key;
    private final byte[] publicKey;
    private final byte[] keyId;
    /** The log's ML-DSA-44 checkpoint key beside this one (decision 146), or null. */
    private final Cosigner.Key postQuantum;

    private NoteSigner(String name, byte[] seed) {
        this(name, seed, null);
    }

    private NoteSigner(String name, byte[] seed, Cosigner.Key postQuantum) {
        NoteVerifier.checkName(name);
        this.name = name;
        this.key = new Ed25519PrivateKeyParameters(seed, 0);
        this.publicKey = key.generatePublicKey().getEncoded();
        this.keyId = NoteVerifier.keyId(name, publicKey);
        this.postQuantum = postQuantum;
    }

    /**
     * This Ed25519 key with the log's ML-DSA-44 key beside it (C2SP tlog-checkpoint: logs SHOULD sign
     * checkpoints with an ML-DSA-44 cosignature; tlog-tiles still requires the Ed25519 signature):
     * {@link Checkpoint#sign(NoteSigner, boolean, long)} then adds its line. Both keys carry the same
     * name, the log's.
     */
    public NoteSigner withPostQuantum(Cosigner.Key mlDsa44) {
        if (!mlDsa44.postQuantum()) {
            throw new IllegalArgumentException(
                    "the log's post-quantum key is an ML-DSA-44 key (type 0x06), " + "not an Ed25519 one");
        }
        if (!mlDsa44.name().equals(name)) {
            throw new IllegalArgumentException("the ML-DSA-44 key is named '" + mlDsa44.name() + "', the log's "
                    + "Ed25519 key '" + name + "': make both with `electoral-log keygen log --name " + name + "`");
        }
        return new NoteSigner(name, key.getEncoded(), mlDsa44);
    }

    /** The log's ML-DSA-44 checkpoint key, if it has one. */
    public Optional<Cosigner.Key> postQuantum() {
        return Optional.ofNullable(postQuantum);
    }

    /** A new random key for {@code name}. */
    public static NoteSigner generate(String name) {
        byte[] seed = new byte[32];
        new SecureRandom().nextBytes(seed);
        return new NoteSigner(name, seed);
    }

    /** A signer from a 32-byte Ed25519 seed. */
    public static NoteSigner fromSeed(String name, byte[] seed) {
        if (seed.length != 32) {
            throw new IllegalArgumentException("Ed25519 seed must be 32 bytes, got " + seed.length);
        }
        return new NoteSigner(name, seed.clone());
    }

    /** Parses a {@code PRIVATE+KEY+name+hex+base64} signer key, checking its key ID. */
    public static NoteSigner parse(String signerKey) {
        SignerKeyText k = SignerKeyText.parse(signerKey);
        if (!k.is(NoteVerifier.ALG_ED25519, 32)) {
            throw new IllegalArgumentException("signer key must hold an Ed25519 seed (0x01 + 32 bytes)");
        }
        NoteSigner signer = new NoteSigner(k.name(), k.material());
        if (!Hex.encode(signer.keyId).equals(k.keyIdHex())) {
            throw new IllegalArgumentException("signer key ID " + k.keyIdHex() + " does not match its key");
        }
        return signer;
    }

    public String name() {
        return name;
    }

    public byte[] keyId() {
        return keyId.clone();
    }

    public byte[] publicKey() {
        return publicKey.clone();
    }

    /** The verifier keys to publish: the Ed25519 one, then the ML-DSA-44 one when there is one. */
    public List<String> verifierKeys() {
        return postQuantum == null ? List.of(verifierKey()) : List.of(verifierKey(), postQuantum.verifierKey());
    }

    /** The verifier key string to publish: {@code name+hex8+base64(0x01||pub)}. */
    public String verifierKey() {
        byte[] typed = new byte[33];
        typed[0] = NoteVerifier.ALG_ED25519;
        System.arraycopy(publicKey, 0, typed, 1, 32);
        return name + "+" + Hex.encode(keyId) + "+" + Base64.getEncoder().encodeToString(typed);
    }

    /** The 32-byte seed (secret), for a cosigner made from this key. */
    byte[] seed() {
        return key.getEncoded();
    }

    /**
     * The same Ed25519 key as a statement sender key: what signs the statements the log makes about
     * itself (the statement module's {@code LogStatements}: heads entries, seals, erasures' accounts). A statement's
     * signed bytes can never be a note's text (see the statement module's {@code LogStatements}).
     */
    public SigningKey statementKey() {
        return SigningKey.fromSeed(key.getEncoded());
    }

    /** The private signer key string. Keep it secret; never log it. */
    public String signerKey() {
        return SignerKeyText.format(name, keyId, NoteVerifier.ALG_ED25519, key.getEncoded());
    }

    /** Raw Ed25519 signature over {@code message}. */
    public byte[] sign(byte[] message) {
        Ed25519Signer s = new Ed25519Signer();
        s.init(true, key);
        s.update(message, 0, message.length);
        return s.generateSignature();
    }

    /**
     * C2SP signed-note: the signature line {@code "— <name> <base64(keyID || signature)>\n"} over
     * the note text (which must end in a newline).
     */
    public String signatureLine(String text) {
        SignedNote.checkText(text);
        byte[] sig = sign(text.getBytes(StandardCharsets.UTF_8));
        byte[] blob = new byte[4 + sig.length];
        System.arraycopy(keyId, 0, blob, 0, 4);
        System.arraycopy(sig, 0, blob, 4, sig.length);
        return SignedNote.SIGNATURE_PREFIX + name + " " + Base64.getEncoder().encodeToString(blob) + "\n";
    }

    @Override
    public String toString() {
        return "NoteSigner[" + name + "+" + Hex.encode(keyId) + (postQuantum != null ? " with ML-DSA-44" : "") + "]";
    }
}
