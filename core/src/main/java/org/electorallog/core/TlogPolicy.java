package org.electorallog.core;

import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A transparency log trust policy in the C2SP tlog-policy format: the logs accepted, the witnesses
 * known, and the quorum, a witness or a group of witnesses and groups with a threshold, nested.
 * What a verifier needs years later to decide whether a checkpoint counts, with the proof.
 *
 * <pre>
 * log &lt;vkey&gt; [&lt;url&gt;]
 * witness &lt;name&gt; &lt;vkey&gt; [&lt;url&gt;]
 * group &lt;name&gt; all|any|&lt;k&gt; &lt;name&gt;...      members on earlier lines, each once, 1 &lt;= k &lt;= n
 * quorum &lt;name&gt;|none                       exactly one
 * </pre>
 *
 * Whitespace is space and tab only; empty lines and lines starting with '#' are skipped; the only
 * control characters allowed are tab and newline ("Character set"); names are opaque bytes and
 * share one namespace, {@code none} being predefined. Duplicate logs or witnesses (the same public
 * key) are refused. Log keys are signed-note Ed25519 keys ({@link NoteVerifier}), witness keys
 * cosignature/v1 keys ({@link Cosigner.Verifier}).
 */
public final class TlogPolicy implements Quorum {
    /** A log the policy accepts, with its URL if given. */
    public record Log(NoteVerifier key, URI url) {}

    /** A witness, by its policy name, with its URL (submission prefix) if given. */
    public record Witness(String name, Cosigner.Verifier key, URI url) {}

    /** A group: at least {@code threshold} of its members (witness or group names) witnessed. */
    public record Group(String name, int threshold, List<String> members) {
        public Group {
            members = List.copyOf(members);
        }
    }

    private static final String NONE = "none";

    private final List<Log> logs;
    private final Map<String, Witness> witnesses;
    private final Map<String, Group> groups;
    private final String quorum;
    private final String text;

    private TlogPolicy(
            List<Log> logs, Map<String, Witness> witnesses, Map<String, Group> groups, String quorum, String text) {
        this.logs = List.copyOf(logs);
        this.witnesses = witnesses;
        this.groups = groups;
        this.quorum = quorum;
        this.text = text;
    }

    /** Parses a policy file's text; an {@link IllegalArgumentException} names the line and the rule broken. */
    public static TlogPolicy parse(String text) {
        List<Log> logs = new ArrayList<>();
        Map<String, Witness> witnesses = new LinkedHashMap<>();
        Map<String, Group> groups = new LinkedHashMap<>();
        Set<String> logKeys = new HashSet<>();
        Set<String> witnessKeys = new HashSet<>();
        String quorum = null;
        String[] lines = text.split("\n", -1);
        for (int n = 0; n < lines.length; n++) {
            String line = lines[n];
            String where = "policy line " + (n + 1) + ": ";
            for (char c : line.toCharArray()) {
                if (c < 0x20 && c != '\t' || c == 0x7F) {
                    throw new IllegalArgumentException(
                            where + "a control character other than tab (tlog-policy " + "\"Character set\")");
                }
            }
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                continue;
            }
            String[] w = trimmed.split("[ \t]+");
            try {
                switch (w[0]) {
                    case "log" -> {
                        arity(w, 2, 3);
                        NoteVerifier key = NoteVerifier.parse(w[1]);
                        if (!logKeys.add(Base64.getEncoder().encodeToString(key.publicKey()))) {
                            throw new IllegalArgumentException("a log listed twice (the same public key)");
                        }
                        logs.add(new Log(key, w.length == 3 ? url(w[2]) : null));
                    }
                    case "witness" -> {
                        arity(w, 3, 4);
                        String name = newName(w[1], witnesses, groups);
                        Cosigner.Verifier key = Cosigner.Verifier.parse(w[2]);
                        if (!witnessKeys.add(
                                key.verifierKey().substring(key.verifierKey().lastIndexOf('+') + 1))) {
                            throw new IllegalArgumentException("a witness listed twice (the same public key)");
                        }
                        witnesses.put(name, new Witness(name, key, w.length == 4 ? url(w[3]) : null));
                    }
                    case "group" -> {
                        if (w.length < 4) {
                            throw new IllegalArgumentException("a group is 'group <name> all|any|<k> <member>...'");
                        }
                        String name = newName(w[1], witnesses, groups);
                        List<String> members = Arrays.asList(w).subList(3, w.length);
                        Set<String> seen = new HashSet<>();
                        for (String m : members) {
                            if (m.equals(NONE)) {
                                throw new IllegalArgumentException("'none' is not a group member");
                            }
                            if (!witnesses.containsKey(m) && !groups.containsKey(m)) {
                                throw new IllegalArgumentException(
                                        "member '" + m + "' is not defined on an earlier line");
                            }
                            if (!seen.add(m)) {
                                throw new IllegalArgumentException("member '" + m + "' is listed twice");
                            }
                        }
                        int k = switch (w[2]) {
                            case "all" -> members.size();
                            case "any" -> 1;
                            default -> threshold(w[2], members.size());
                        };
                        groups.put(name, new Group(name, k, members));
                    }
                    case "quorum" -> {
                        arity(w, 2, 2);
                        if (quorum != null) {
                            throw new IllegalArgumentException("a second quorum line (a policy has exactly one)");
                        }
                        if (!w[1].equals(NONE) && !witnesses.containsKey(w[1]) && !groups.containsKey(w[1])) {
                            throw new IllegalArgumentException(
                                    "quorum '" + w[1] + "' is not defined on an earlier line");
                        }
                        quorum = w[1];
                    }
                    default ->
                        throw new IllegalArgumentException(
                                "'" + w[0] + "' is not a policy line (log, witness, group, quorum)");
                }
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + e.getMessage(), e);
            }
        }
        if (quorum == null) {
            throw new IllegalArgumentException("the policy has no quorum line ('quorum none' asks for no witness)");
        }
        return new TlogPolicy(logs, witnesses, groups, quorum, text);
    }

    public List<Log> logs() {
        return logs;
    }

    /**
     * This policy with {@code logKeys} as its logs, in place of any it lists (the log publishes its
     * witness rule with its own keys beside each board's checkpoint).
     */
    public TlogPolicy withLogs(List<NoteVerifier> logKeys) {
        StringBuilder sb = new StringBuilder();
        logKeys.forEach(k -> sb.append("log ").append(k.verifierKey()).append('\n'));
        for (String line : text.split("\n", -1)) {
            if (!line.strip().matches("log([ \t].*)?")) {
                sb.append(line).append('\n');
            }
        }
        return parse(sb.toString().replaceAll("\n+$", "\n"));
    }

    /**
     * The quorum as a plain "k of the witnesses" when it is one (quorum none: 0; one witness: 1; a
     * group whose members are all the witnesses and no group: its threshold); -1 when it has nested
     * groups or leaves witnesses out, and only {@link #met} can say.
     */
    public int flatThreshold() {
        if (quorum.equals(NONE)) {
            return 0;
        }
        if (witnesses.containsKey(quorum)) {
            return witnesses.size() == 1 ? 1 : -1;
        }
        Group g = groups.get(quorum);
        boolean flat = groups.size() == 1
                && g.members().size() == witnesses.size()
                && g.members().stream().allMatch(witnesses::containsKey);
        return flat ? g.threshold() : -1;
    }

    /** The log keys, for a signed-note verifier. */
    public List<NoteVerifier> logKeys() {
        return logs.stream().map(Log::key).toList();
    }

    public List<Witness> witnesses() {
        return List.copyOf(witnesses.values());
    }

    /** The witnesses' keys, for checking cosignatures. */
    public List<Cosigner.Verifier> witnessKeys() {
        return witnesses.values().stream().map(Witness::key).toList();
    }

    /** The policy as it was written: what a log publishes beside its checkpoints. */
    public String text() {
        return text;
    }

    @Override
    public boolean met(Collection<Cosigner.Verifier> cosigned) {
        Set<String> keys = new HashSet<>();
        cosigned.forEach(v -> keys.add(v.verifierKey()));
        return witnessed(quorum, keys);
    }

    private boolean witnessed(String name, Set<String> cosigned) {
        if (name.equals(NONE)) {
            return true;
        }
        Witness w = witnesses.get(name);
        if (w != null) {
            return cosigned.contains(w.key().verifierKey());
        }
        Group g = groups.get(name);
        int n = 0;
        for (String m : g.members()) {
            if (witnessed(m, cosigned)) {
                n++;
            }
        }
        return n >= g.threshold();
    }

    @Override
    public String rule() {
        if (quorum.equals(NONE)) {
            return "no witness (quorum none)";
        }
        return witnesses.containsKey(quorum) ? "the witness " + quorum : "the group " + describe(quorum);
    }

    private String describe(String name) {
        Group g = groups.get(name);
        if (g == null) {
            return name;
        }
        List<String> members = new ArrayList<>();
        g.members().forEach(m -> members.add(describe(m)));
        return name + " (" + g.threshold() + " of " + String.join(", ", members) + ")";
    }

    private static void arity(String[] w, int min, int max) {
        if (w.length < min || w.length > max) {
            throw new IllegalArgumentException("'" + w[0] + "' takes " + (min - 1)
                    + (max > min ? " or " + (max - 1) : "") + " value(s), not " + (w.length - 1));
        }
    }

    private static String newName(String name, Map<String, Witness> witnesses, Map<String, Group> groups) {
        if (name.equals(NONE)) {
            throw new IllegalArgumentException("'none' is predefined: it cannot name a witness or a group");
        }
        if (witnesses.containsKey(name) || groups.containsKey(name)) {
            throw new IllegalArgumentException("the name '" + name + "' is defined twice");
        }
        return name;
    }

    private static int threshold(String k, int n) {
        if (!k.matches("[1-9][0-9]{0,8}")) {
            throw new IllegalArgumentException(
                    "a group's threshold is all, any or a number 1 to its " + n + " member(s), not '" + k + "'");
        }
        int v = Integer.parseInt(k);
        if (v > n) {
            throw new IllegalArgumentException("the threshold " + v + " is above the group's " + n + " member(s)");
        }
        return v;
    }

    private static URI url(String u) {
        URI uri = URI.create(u);
        if (uri.getScheme() == null) {
            throw new IllegalArgumentException("'" + u + "' is not a URL");
        }
        return uri;
    }
}
