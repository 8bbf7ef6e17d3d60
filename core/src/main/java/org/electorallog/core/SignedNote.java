package org.electorallog.core;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collection;
import java.util.List;

/**
 * A C2SP signed note: UTF-8 text ending in a newline, a blank line, then one or more signature lines
 * {@code "— <key name> <base64(4-byte key ID || signature)>\n"}. Signatures cover the text including
 * its final newline.
 *
 * <p>{@link #open} follows C2SP signed-note: signatures by unknown keys are ignored, a signature by a
 * known key that does not verify rejects the whole note, and at least one known key must sign.
 */
public final class SignedNote {
    /** Em dash U+2014 and a space: the start of every signature line. */
    public static final String SIGNATURE_PREFIX = "\u2014 ";
    /** Notes with more signature lines are rejected (the Go reference implementation's limit). */
    public static final int MAX_SIGNATURES = 100;

    private final String text;
    private final List<Signature> signatures;

    /** One signature line. */
    @SuppressWarnings("ArrayRecordComponent") // a parsed line, never compared as a value
    public record Signature(String name, byte[] keyId, byte[] signature) {
        /** The line as it appears in the note, with its newline. */
        public String line() {
            byte[] blob = new byte[keyId.length + signature.length];
            System.arraycopy(keyId, 0, blob, 0, keyId.length);
            System.arraycopy(signature, 0, blob, keyId.length, signature.length);
            return SIGNATURE_PREFIX + name + " " + Base64.getEncoder().encodeToString(blob) + "\n";
        }
    }

    private SignedNote(String text, List<Signature> signatures) {
        this.text = text;
        this.signatures = List.copyOf(signatures);
    }

    public String text() {
        return text;
    }

    public List<Signature> signatures() {
        return signatures;
    }

    /** The note in its wire form. */
    public String serialize() {
        StringBuilder sb = new StringBuilder(text).append('\n');
        for (Signature s : signatures) {
            sb.append(s.line());
        }
        return sb.toString();
    }

    /** Signs {@code text} with each signer, producing a note. */
    public static String sign(String text, NoteSigner... signers) {
        checkText(text);
        if (signers.length == 0) {
            throw new IllegalArgumentException("a signed note needs at least one signer");
        }
        StringBuilder sb = new StringBuilder(text).append('\n');
        for (NoteSigner s : signers) {
            sb.append(s.signatureLine(text));
        }
        return sb.toString();
    }

    /** Adds more signature lines (for example a witness cosignature) to an existing note. */
    public SignedNote withSignature(Signature extra) {
        List<Signature> all = new ArrayList<>(signatures);
        all.add(extra);
        if (all.size() > MAX_SIGNATURES) {
            throw new IllegalArgumentException("a note may carry at most " + MAX_SIGNATURES + " signatures");
        }
        return new SignedNote(text, all);
    }

    /** Note text rules: non-empty, valid UTF-8, ends in '\n', no blank line, no control characters but '\n'. */
    static void checkText(String text) {
        if (text == null || text.isEmpty()) {
            throw new IllegalArgumentException("note text must not be empty");
        }
        if (!text.endsWith("\n")) {
            throw new IllegalArgumentException("note text must end with a newline");
        }
        if (text.contains("\n\n") || text.startsWith("\n")) {
            throw new IllegalArgumentException("note text must not contain a blank line");
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c != '\n' && (c < 0x20 || c == 0x7f)) {
                throw new IllegalArgumentException("note text must not contain control character 0x"
                        + Integer.toHexString(c) + " (at character " + i + ")");
            }
            if (Character.isSurrogate(c)) {
                if (!Character.isHighSurrogate(c)
                        || i + 1 >= text.length()
                        || !Character.isLowSurrogate(text.charAt(i + 1))) {
                    throw new IllegalArgumentException("note text is not valid UTF-16/UTF-8 at character " + i);
                }
                i++;
            }
        }
    }

    /** Parses a note's wire bytes strictly (UTF-8, structure, signature lines); verifies nothing. */
    public static SignedNote parse(byte[] note) throws ProofException {
        String s;
        try {
            CharBuffer cb = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(note));
            s = cb.toString();
        } catch (CharacterCodingException e) {
            throw new ProofException("note is not valid UTF-8");
        }
        return parse(s);
    }

    /** Parses a note strictly; verifies nothing. */
    public static SignedNote parse(String note) throws ProofException {
        if (note.indexOf('\r') >= 0) {
            throw new ProofException("note must use '\\n' line endings, found '\\r'");
        }
        int split = note.lastIndexOf("\n\n");
        if (split < 0) {
            throw new ProofException("note has no blank line before its signatures");
        }
        String text = note.substring(0, split + 1);
        try {
            checkText(text);
        } catch (IllegalArgumentException e) {
            throw new ProofException("malformed note text: " + e.getMessage());
        }
        String sigBlock = note.substring(split + 2);
        if (!sigBlock.endsWith("\n")) {
            throw new ProofException("note signature block must end with a newline");
        }
        String[] lines = sigBlock.substring(0, sigBlock.length() - 1).split("\n", -1);
        if (lines.length > MAX_SIGNATURES) {
            throw new ProofException(
                    "note has " + lines.length + " signatures, at most " + MAX_SIGNATURES + " allowed");
        }
        List<Signature> sigs = new ArrayList<>(lines.length);
        for (String line : lines) {
            sigs.add(parseSignatureLine(line));
        }
        return new SignedNote(text, sigs);
    }

    private static Signature parseSignatureLine(String line) throws ProofException {
        if (!line.startsWith(SIGNATURE_PREFIX)) {
            throw new ProofException("signature line must start with an em dash and a space: '" + line + "'");
        }
        String rest = line.substring(SIGNATURE_PREFIX.length());
        int space = rest.indexOf(' ');
        if (space <= 0 || rest.indexOf(' ', space + 1) >= 0) {
            throw new ProofException("signature line must be '— <name> <base64>': '" + line + "'");
        }
        String name = rest.substring(0, space);
        try {
            NoteVerifier.checkName(name);
        } catch (IllegalArgumentException e) {
            throw new ProofException("bad key name in signature line: " + e.getMessage());
        }
        byte[] blob;
        try {
            blob = Base64.getDecoder().decode(rest.substring(space + 1));
        } catch (IllegalArgumentException e) {
            throw new ProofException("signature line has bad base64: " + e.getMessage());
        }
        if (blob.length < 5) {
            throw new ProofException("signature line is too short to hold a key ID and a signature");
        }
        return new Signature(name, Arrays.copyOf(blob, 4), Arrays.copyOfRange(blob, 4, blob.length));
    }

    /**
     * Parses and verifies a note against the given known keys; returns the note when at least one
     * known key signed it and every signature by a known key verifies.
     */
    public static SignedNote open(String note, Collection<NoteVerifier> known) throws ProofException {
        SignedNote parsed = parse(note);
        byte[] message = parsed.text.getBytes(StandardCharsets.UTF_8);
        int verified = 0;
        for (Signature sig : parsed.signatures) {
            for (NoteVerifier v : known) {
                if (v.matches(sig.name(), sig.keyId())) {
                    if (!v.verify(message, sig.signature())) {
                        throw new ProofException("signature by known key " + sig.name() + "+" + Hex.encode(sig.keyId())
                                + " does not verify");
                    }
                    verified++;
                }
            }
        }
        if (verified == 0) {
            throw new ProofException("note is not signed by any known key");
        }
        return parsed;
    }
}
