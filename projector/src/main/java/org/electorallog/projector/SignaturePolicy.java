package org.electorallog.projector;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.electorallog.core.SigningKey;
import org.electorallog.schemas.BadEventException;
import org.electorallog.schemas.DecodedStatement;

/**
 * Which statements must carry valid signatures. On boards whose name matches {@code boards}:
 * {@code SENDER} requires a sender signature that verifies with the statement's sender key over its
 * canonical bytes; {@code SENDER_AND_SYSTEM} also requires a system signature by one of the
 * configured system keys. A missing signature is dead-lettered as {@code UNSIGNED}, a wrong one as
 * {@code BAD_SIGNATURE}. With {@code registry}, the sender key must also be registered for the
 * statement's kind and board at its time (see {@link SenderRegistry}); that needs a signature mode,
 * since an unsigned statement's sender key is only a claim.
 */
public record SignaturePolicy(Mode mode, Pattern boards, List<byte[]> systemKeys, boolean registry) {
    public enum Mode {
        NONE,
        SENDER,
        SENDER_AND_SYSTEM
    }

    /** A policy without the sender registry. */
    public SignaturePolicy(Mode mode, Pattern boards, List<byte[]> systemKeys) {
        this(mode, boards, systemKeys, false);
    }

    public SignaturePolicy {
        systemKeys = List.copyOf(systemKeys);
        if (registry && mode == Mode.NONE) {
            throw new IllegalArgumentException(
                    "the sender registry needs signature policy SENDER or SENDER_AND_SYSTEM: "
                            + "without a verified sender signature a statement's sender key is only a claim");
        }
        if (mode == Mode.SENDER_AND_SYSTEM && systemKeys.isEmpty()) {
            throw new IllegalArgumentException(
                    "signature policy SENDER_AND_SYSTEM needs at least one system public key");
        }
        for (byte[] k : systemKeys) {
            if (k.length != 32) {
                throw new IllegalArgumentException("a system public key is 32 bytes, got " + k.length);
            }
        }
    }

    public static SignaturePolicy none() {
        return new SignaturePolicy(Mode.NONE, Pattern.compile(".*"), List.of());
    }

    /**
     * Parses the policy settings: mode name, board-name regex, comma-separated base64 system keys,
     * and the sender registry setting ({@code OFF} or {@code ENFORCE}).
     */
    public static SignaturePolicy parse(String mode, String boards, String systemKeys, String registry) {
        boolean enforce;
        switch (registry == null ? "OFF" : registry.strip().toUpperCase(Locale.ROOT)) {
            case "OFF" -> enforce = false;
            case "ENFORCE" -> enforce = true;
            default ->
                throw new IllegalArgumentException("sender registry must be OFF or ENFORCE, got '" + registry + "'");
        }
        Mode m;
        try {
            m = Mode.valueOf(mode.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "signature policy must be NONE, SENDER or SENDER_AND_SYSTEM, got '" + mode + "'");
        }
        List<byte[]> keys = systemKeys == null || systemKeys.isBlank()
                ? List.of()
                : Arrays.stream(systemKeys.split(","))
                        .map(String::strip)
                        .map(k -> Base64.getDecoder().decode(k))
                        .toList();
        return new SignaturePolicy(
                m, Pattern.compile(boards == null || boards.isBlank() ? ".*" : boards), keys, enforce);
    }

    /** True when statements on this board must come from a key the sender registry allows. */
    boolean registryCovers(String board) {
        return registry && boards.matcher(board).matches();
    }

    /** Throws UNSIGNED or BAD_SIGNATURE when the statement's board requires signatures it lacks. */
    void check(DecodedStatement st) throws BadEventException {
        check(st, new HashMap<>());
    }

    /**
     * As {@link #check(DecodedStatement)}, decoding each sender key once into {@code senderKeys}
     * (by its bytes): a batch's statements come from a few senders, and decoding a key is about a
     * tenth of a verification.
     */
    void check(DecodedStatement st, Map<ByteBuffer, SigningKey.PublicKey> senderKeys) throws BadEventException {
        if (mode == Mode.NONE || !boards.matcher(st.board()).matches()) {
            return;
        }
        if (st.senderSignature() == null) {
            throw new BadEventException(
                    BadEventException.Reason.UNSIGNED,
                    "board " + st.board() + " requires a sender signature and the statement has none");
        }
        byte[] senderKey = st.senderPublicKey();
        SigningKey.PublicKey sender = senderKey == null
                ? SigningKey.PublicKey.decode(null)
                : senderKeys.computeIfAbsent(
                        ByteBuffer.wrap(senderKey.clone()), k -> SigningKey.PublicKey.decode(k.array()));
        if (!sender.verify(st.entry().canonical(), st.senderSignature())) {
            throw new BadEventException(
                    BadEventException.Reason.BAD_SIGNATURE,
                    "the sender signature does not verify with the statement's sender key");
        }
        if (mode == Mode.SENDER_AND_SYSTEM) {
            if (st.systemSignature() == null) {
                throw new BadEventException(
                        BadEventException.Reason.UNSIGNED,
                        "board " + st.board() + " requires a system signature and the statement has none");
            }
            for (byte[] key : systemKeys) {
                if (SigningKey.verify(key, st.entry().canonical(), st.systemSignature())) {
                    return;
                }
            }
            throw new BadEventException(
                    BadEventException.Reason.BAD_SIGNATURE,
                    "the system signature does not verify with any configured system key");
        }
    }
}
