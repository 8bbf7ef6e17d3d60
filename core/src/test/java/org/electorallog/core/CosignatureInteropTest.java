package org.electorallog.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Our cosignature/v1 code against signatures made by others (issue 18: interoperability is checked
 * against a published example, not only our own code).
 *
 * <p>The checkpoint is a real one of the transparency.dev staging CT log
 * {@code arche2025h1.staging.ct.transparency.dev}, cosigned by public witnesses running independent
 * implementations (the transparency.dev "little-garden" witness, SmartIT's witness1, remora.n621.de),
 * as quoted with the witnesses' published vkeys in the tests of tlog_scales (a Python tlog library).
 * The log's own signatures are an RFC 6962 tree-head signature and an Ed25519 signed-note signature.
 */
class CosignatureInteropTest {
    static final String CHECKPOINT = """
            arche2025h1.staging.ct.transparency.dev
            1432088532
            U7WM79jrzyhGZ5/GUBTpM7NzwdyfFx61t3RovgcC4Ro=

            — arche2025h1.staging.ct.transparency.dev zTM8sQAAAZ5W0WdjBAMARjBEAiBjW5IQf9pvsYLfQFX6hoGREPMHbdQ3urbllzalApkptQIgIpwtEroeW2BXaHAI4kJXFbon5Ch9MNL5zRNZ55lvGt0=
            — arche2025h1.staging.ct.transparency.dev ui8GwCF1+kWqZrxGdhj4aX3gcw7XUlXQQabg/27lefwhUkzbC3NygNI75MdhL1bfTW9g8Ei59RA23oHP7Ry1k3ZFWwQ=
            — transparency.dev/DEV:witness-little-garden 2AQqhwAAAABqEiEgzgFIqqhbUoDwjMWE6UP8nd8/KYTzwZ2rhIgcqoXHAwVkjZr4AscylP3v7sEodkRAErumC2q44vdgJY096st5BQ==
            — witness1.smartit.nu/witness1 pIyCDwAAAABqEiEghIp82KWebrw7/oHQwlTAm3g2RKS4+eebl8eO0WH+/iEcxZ75W3u5hNI7TOQtmJbqmNWVuE0tgh0XwzdZsDsUAQ==
            — remora.n621.de 2net5wAAAABqEiEgPlfF3V06o0Y+fHM+J5J9s27wgxxcOVSpZ/2g/KSiXCg9DEZI+aVCIobWX9sXTynk5XeU/zZ0WBxtqB0DrAWfBw==
            — witness.stagemole.eu Z/euoAAAAABqEiEgw0i+7g2ENfDAWHmtRzCfKTHSDwYDJA2NmKeGi9Y8FtEyOUvVr+AJmIY/2TUFucgKi7lI7cUiOvKFYe/TmN9DAg==
            """;

    static final String LOG_KEY =
            "arche2025h1.staging.ct.transparency.dev+ba2f06c0+AU0vHmlGCS/PdN8b2OaGmKprLI8HKM+dJ472xgFYh15f";

    /** Published witness vkeys (signature type 0x04, cosignature/v1). */
    static final List<String> WITNESS_KEYS = List.of(
            "transparency.dev/DEV:witness-little-garden+d8042a87+BCtusOxINQNUTN5Oj8HObRkh2yHf/MwYaGX4CPdiVEPM",
            "witness1.smartit.nu/witness1+a48c820f+BPSFWg9G6KPiO7QPryYO5Xq4oYJJ+kAvLKLSimDhoxMO",
            "remora.n621.de+da77ade7+BOvN63jn/bLvkieywe8R6UYAtVtNbZpXh34x7onlmtw2");

    @Test
    void publishedKeyIdsAreTheOnesWeCompute() {
        // parse recomputes SHA-256(name || "\n" || 0x04 || key)[:4] and refuses a key whose ID differs
        for (String vkey : WITNESS_KEYS) {
            assertEquals(vkey, Cosigner.Verifier.parse(vkey).verifierKey());
        }
        String wrongId = WITNESS_KEYS.get(2).replace("+da77ade7+", "+da77ade8+");
        refused(() -> Cosigner.Verifier.parse(wrongId), "does not match");
    }

    @Test
    void cosignaturesByIndependentWitnessesVerify() throws Exception {
        SignedNote note = SignedNote.open(CHECKPOINT, List.of(NoteVerifier.parse(LOG_KEY)));
        for (String vkey : WITNESS_KEYS) {
            // the signed message is "cosignature/v1\ntime <t>\n" + the checkpoint body; t is big-endian after the key
            // ID
            assertEquals(1779573024L, Cosigner.Verifier.parse(vkey).verify(note));
        }
        TlogProof proof = new TlogProof(null, 0, List.of(), CHECKPOINT);
        assertEquals(CHECKPOINT, proof.checkpointNote());
    }

    @Test
    void aChangedCheckpointBodyFailsEveryCosignature() throws Exception {
        SignedNote changed = SignedNote.parse(CHECKPOINT.replace("\n1432088532\n", "\n1432088533\n"));
        for (String vkey : WITNESS_KEYS) {
            Cosigner.Verifier w = Cosigner.Verifier.parse(vkey);
            refused(() -> w.verify(changed), "does not verify");
        }
    }

    @Test
    void aChangedTimestampFailsTheCosignature() throws Exception {
        // the timestamp is signed: 0x6a122120 -> 0x6a122121 in remora's line
        String tampered = CHECKPOINT.replace("2net5wAAAABqEiEgPlfF", "2net5wAAAABqEiEhPlfF");
        SignedNote note = SignedNote.parse(tampered);
        refused(() -> Cosigner.Verifier.parse(WITNESS_KEYS.get(2)).verify(note), "does not verify");
    }

    @Test
    void aWitnessKeyFromAGoNoteSignerKeyCosignsUnderTheCosignatureKeyId() throws Exception {
        NoteSigner goStyle = NoteSigner.generate("witness.example/w1");
        Cosigner.Key witness = Cosigner.Key.parse(goStyle.signerKey());
        Cosigner.Verifier verifier = Cosigner.Verifier.parse(witness.verifierKey());
        // same public key, another algorithm byte, so another key ID (tlog-cosignature "Format")
        assertNotEquals(goStyle.verifierKey(), witness.verifierKey());
        assertEquals(
                java.util.Arrays.toString(keyMaterial(goStyle.verifierKey())),
                java.util.Arrays.toString(keyMaterial(witness.verifierKey())));
        NoteSigner log = NoteSigner.generate("log.example");
        String note = new Checkpoint("log.example", 3, new byte[32]).sign(log);
        SignedNote cosigned = SignedNote.parse(note)
                .withSignature(witness.cosign(SignedNote.parse(note).text(), 1779573024L));
        assertEquals(1779573024L, verifier.verify(SignedNote.parse(cosigned.serialize())));
    }

    /** The 32 public key bytes of a vkey (after its algorithm byte). */
    static byte[] keyMaterial(String vkey) {
        byte[] typed = java.util.Base64.getDecoder().decode(vkey.split("\\+", 3)[2]);
        return java.util.Arrays.copyOfRange(typed, 1, typed.length);
    }

    static void refused(org.junit.jupiter.api.function.Executable call, String reason) {
        Throwable t = assertThrows(Exception.class, call);
        assertTrue(t.getMessage().contains(reason), () -> "expected '" + reason + "' in: " + t.getMessage());
    }
}
